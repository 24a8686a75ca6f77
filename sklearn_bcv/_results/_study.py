"""What a study's methods say so that another lab can rerun it: its data
sets, its seeds and the tests run on each data set (the software is
:func:`~._methods.version_sentence`'s, as in every report).

A :func:`~sklearn_bcv.benchmark` records in its ``provenance`` each data
set's size, features, classes (or target range), source and the seed of
its splits, and the study seed they derive from
(:mod:`sklearn_bcv._engine._seeds`); :func:`datasets_table` and
:func:`seeds_sentence` write them down, :func:`per_dataset_items` the
tests of each data set on its own for "Tests and why".
"""

from ..stats._references import CORRECTION_REFERENCES
from ..stats._registry import declaration
from ._blocks import Math, Ref, Table, Text, names_list
from ._methods import CORRECTION_NAMES, cited, seed_text

__all__ = [
    "datasets_table",
    "per_dataset_items",
    "per_dataset_tests",
    "seeds_sentence",
]


def _range(values):
    low, high = values
    return f"{low:g} to {high:g}"


def datasets_table(result):
    """The table of the data sets (records, features, classes or target
    range, the seed of their splits), their sources in a note; None when
    the result does not know them (scores given)."""
    described = (result.get("provenance") or {}).get("datasets")
    if not described:
        return None
    names = list(result.datasets)
    rows_of = [described.get(name) or {} for name in names]
    classification = any(d.get("n_classes") is not None for d in rows_of)
    seeded = any(d.get("seed") is not None for d in rows_of)
    header = ["data set", "records", "features"]
    header.append("classes" if classification else "target range")
    if seeded:
        header.append("seed of the splits")
    rows = []
    for name, d in zip(names, rows_of):
        row = [name, str(d.get("n_samples", "-")), str(d.get("n_features", "-"))]
        if classification:
            row.append(str(d.get("n_classes", "-")))
        else:
            target = d.get("target_range")
            row.append(_range(target) if target else "-")
        if seeded:
            seed = d.get("seed")
            row.append("-" if seed is None else str(seed))
        rows.append(row)
    known = [(name, d.get("source")) for name, d in zip(names, rows_of)]
    sources = [f"{name}: {source}" for name, source in known if source]
    unknown = [name for name, source in known if not source]
    notes = []
    if sources:
        text = "Sources: " + "; ".join(sources)
        if unknown:
            text += (
                f"; {names_list(unknown)} given as arrays or by a function whose "
                "source is not recorded"
            )
        notes.append(text + ".")
    caption = (
        "The data sets: records, features and "
        + ("classes" if classification else "the range of the target")
        + (", and the seed of each one's splits" if seeded else "")
        + "."
    )
    table = Table(header, rows, caption=caption, label="datasets", notes=notes)
    return table.introduce(
        "the data sets"
        + (" and where they come from" if sources else "")
        + (", with the seed of each one's splits" if seeded else "")
    )


def seeds_sentence(result, table=None):
    """How the seeds derive, as a rerun needs it: the study seed (given or
    drawn, and how to repeat a drawn one) and the rule of each data set's
    seed (None when the splits were not seeded by the study)."""
    provenance = result.get("provenance") or {}
    described = provenance.get("datasets") or {}
    if not any(d.get("seed") is not None for d in described.values()):
        return None
    text = Text(
        f"Seeds: the study seed is {seed_text(provenance)}. Each data set's "
        "splits are seeded with the first four bytes of the SHA-256 digest of "
        "“<study seed>:<data set name>” (UTF-8), a big-endian integer modulo ",
        Math("2^{31}", "2^31"),
        ", so they do not depend on the other data sets or their order",
    )
    if table is not None:
        text += Text(" (the seeds are in ", Ref(table), ")")
    return text + (
        "; the study seed also seeds the Monte Carlo draws of the Bayesian "
        "tests and the bootstrap resamples of the effect sizes."
    )


def per_dataset_tests(result):
    """``(omnibus tests, pairwise tests, correction)`` run on each data set
    on its own (``result.per_dataset``)."""
    per_dataset = result.get("per_dataset") or {}
    omnibus = sorted({name for one in per_dataset.values() for name in one.tests})
    pairwise = sorted({name for one in per_dataset.values() for name in one.pairwise})
    corrections = {one.get("correction") for one in per_dataset.values()}
    correction = next(iter(corrections)) if len(corrections) == 1 else None
    return omnibus, pairwise, correction


def per_dataset_items(result, bibliography):
    """The items of "Tests and why" of the tests run on each data set on
    its own (their table), with the correction of the pairs."""
    omnibus, pairwise, correction = per_dataset_tests(result)
    items = []
    for name in omnibus:
        why = declaration(name).rationale
        text = f"{name} (on each data set on its own): {why}"
        items.append(cited(text, bibliography.test(name)))
    for name in pairwise:
        why = declaration(name).rationale
        how = ""
        if correction:
            how = cited(
                CORRECTION_NAMES.get(correction, f"the {correction} correction"),
                bibliography.cite(CORRECTION_REFERENCES.get(correction, ())),
            )
            how = f"; its p-values adjusted over each data set's pairs by {how}"
        text = f"{name} (each pair, on each data set on its own): {why}{how}"
        items.append(cited(text, bibliography.test(name)))
    return items
