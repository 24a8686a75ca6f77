"""A progress bar for the fits of a comparison: done of total, time left.

A comparison runs for seconds to hours; the user must see it move. With
``tqdm`` installed the bar is tqdm's; otherwise one line on stderr,
rewritten in place, says the same: fits done of the total, elapsed and
remaining time, and (across data sets) the data sets whose fits are all
done. On resuming from a study store, the fits read from it leave the
total, and the bar says how many they were. A sequential design gives the
most fits it may need (``at_most=True``): the bar then says "of at most",
and when the design stops early the total becomes what was fitted.

The bar belongs to whoever made it: the engine updates it, its maker
closes it (one bar can span several pools, as the looks of a sequential
design do).
"""

import sys
import time

__all__ = ["FitProgress"]

#: Seconds between two redraws of the plain counter.
_REDRAW_EVERY = 0.5


def _clock(seconds):
    """``h:mm:ss`` (or ``m:ss``) of a number of seconds."""
    seconds = int(round(seconds))
    hours, rest = divmod(seconds, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds:02d}"
    return f"{minutes}:{seconds:02d}"


class FitProgress:
    """Count finished fits, overall and per data set, and show them.

    Parameters
    ----------
    totals : list of (str, int)
        Each data set's name and number of fits, in order.
    verbose : int
        1 shows the bar; 2 and more also print a line when a data set's
        fits are all done.
    file : file-like, default=None
        Where to write (``sys.stderr``).
    use_tqdm : bool, default=None
        None uses tqdm when it is installed.
    label : str, default="benchmark"
        What is fitting, in the plain line's brackets (``[benchmark]``).
    at_most : bool, default=False
        The total is an upper bound (a sequential design may stop early).
    """

    def __init__(
        self,
        totals,
        verbose=1,
        *,
        file=None,
        use_tqdm=None,
        label="benchmark",
        at_most=False,
    ):
        self.label = label
        self.at_most = at_most
        self.names = [name for name, _ in totals]
        self.totals = [int(n) for _, n in totals]
        self.total = sum(self.totals)
        self.done = [0] * len(totals)
        self.n_stored = 0
        self.verbose = verbose
        self.file = sys.stderr if file is None else file
        self.start = time.perf_counter()
        self._last_draw = -float("inf")
        self._bar = self._make_tqdm() if use_tqdm in (None, True) else None
        if use_tqdm and self._bar is None:
            raise ImportError("use_tqdm=True needs tqdm: pip install tqdm")

    def _make_tqdm(self):
        try:
            from tqdm import tqdm
        except ImportError:
            return None
        desc = "fits (at most)" if self.at_most else "fits"
        return tqdm(total=self.total, desc=desc, unit="fit", file=self.file)

    @property
    def n_done(self):
        return sum(self.done)

    @property
    def datasets_done(self):
        return sum(d == t for d, t in zip(self.done, self.totals))

    def already_done(self, datasets):
        """Fits found in a study store (one data set number each): they are
        not work left, so they leave the totals, and the bar says how many
        were read from the store."""
        datasets = list(datasets)
        for dataset in datasets:
            self.totals[dataset] -= 1
        self.total = sum(self.totals)
        self.n_stored += len(datasets)
        if self._bar is not None:
            self._bar.total = self.total
            if self.n_stored:
                self._bar.set_description(
                    f"fits ({self.n_stored} read from the store)", refresh=False
                )
            self._bar.refresh()

    def update(self, dataset):
        """One fit of data set number ``dataset`` finished."""
        self.done[dataset] += 1
        finished = self.done[dataset] == self.totals[dataset]
        if self._bar is not None:
            self._bar.update(1)
            if finished and len(self.totals) > 1:
                self._bar.set_postfix_str(
                    f"data sets done {self.datasets_done}/{len(self.totals)}",
                    refresh=False,
                )
        else:
            now = time.perf_counter()
            if finished or now - self._last_draw >= _REDRAW_EVERY:
                self._draw(now)
        if finished and self.verbose > 1 and len(self.totals) > 1:
            self._write_line(
                f"[{self.label}] {self.names[dataset]}: {self.totals[dataset]} fits "
                f"done after {_clock(time.perf_counter() - self.start)}"
            )

    def line(self, now=None):
        """The plain counter's text."""
        now = time.perf_counter() if now is None else now
        elapsed = now - self.start
        n_done = self.n_done
        remaining = (
            "?" if n_done == 0 else _clock(elapsed / n_done * (self.total - n_done))
        )
        percent = 100 * n_done // self.total if self.total else 100
        stored = f", {self.n_stored} read from the store" if self.n_stored else ""
        datasets = (
            f", data sets done {self.datasets_done}/{len(self.totals)}"
            if len(self.totals) > 1
            else ""
        )
        of = (
            f"{n_done} of at most {self.total}"
            if self.at_most
            else (f"{n_done}/{self.total}")
        )
        return (
            f"[{self.label}] {of} fits ({percent}%){stored}{datasets}, elapsed "
            f"{_clock(elapsed)}, remaining {'at most ' if self.at_most else ''}"
            f"{remaining}"
        )

    def _draw(self, now):
        self._last_draw = now
        self.file.write("\r" + self.line(now))
        self.file.flush()

    def write(self, text):
        """Print a line of text above the bar (the bar is redrawn below)."""
        self._write_line(text)

    def _write_line(self, text):
        if self._bar is not None:
            self._bar.write(text, file=self.file)
        else:
            self.file.write("\r" + text + "\n")
            self._draw(time.perf_counter())

    def stop_early(self):
        """The design stopped before its upper bound: the total becomes the
        fits done, so the closed bar reads complete."""
        self.totals = list(self.done)
        self.total = self.n_done
        self.at_most = False
        if self._bar is not None:
            self._bar.total = self.total
            self._bar.set_description("fits", refresh=False)

    def close(self):
        """Finish the bar (a final newline for the plain counter)."""
        if self._bar is not None:
            self._bar.close()
        else:
            self._draw(time.perf_counter())
            self.file.write("\n")
            self.file.flush()
