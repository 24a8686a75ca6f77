"""The one place where private scikit-learn names are imported.

scikit-learn's parameter validation helpers are not public API; keeping the
import here means a rename upstream is mended in one line.
"""

from sklearn.utils._optional_dependencies import (  # noqa: F401
    check_matplotlib_support,
)
from sklearn.utils._param_validation import (  # noqa: F401
    HasMethods,
    Interval,
    InvalidParameterError,
    Options,
    StrOptions,
    validate_params,
)
from sklearn.utils.metaestimators import _safe_split  # noqa: F401
from sklearn.utils.validation import (  # noqa: F401
    _check_method_params,
    _num_samples,
)
