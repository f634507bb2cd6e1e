#!/usr/bin/env python3
"""Generate the rewritten fixtures ("variants") of tests/fixtures/JP*/*.py.

    python3 tests/variants/generate.py [--out DIR] [--list] [FIXTURE ...]

Every transform of transforms.py is applied to every positive (``# ruleid:``)
and near-miss (``# ok:``) fixture; at most MAX_PER_TRANSFORM rewrites per
transform and fixture (MAX_PER_TRANSFORM = 2).

A variant is a directory of files.  Its id is ``<RULE>/<fixture stem>__<transform>``
(``__2`` for a transform's second rewrite of the same fixture), and it is
written to ``DIR/<id>/<RULE>/``: the innermost directory keeps the rule's name
because the oracle's harness looks at it (JP012 turns DeprecationWarning into
an error).  The fixture's own file keeps its name; ``imported_constant`` adds
``_variant_cfg.py`` beside it.

Standard library only; the same fixtures give byte-identical variants.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import multiprocessing
import os
import sys
from dataclasses import dataclass
from pathlib import Path

sys.dont_write_bytecode = True  # no __pycache__ in tests/
HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(ROOT / "tests" / "oracle"))

import transforms  # noqa: E402
from run import JAX_VERSION, PREDICTED, parse  # noqa: E402  (tests/oracle/run.py)

MAX_PER_TRANSFORM = 2


@dataclass
class Variant:
    id: str
    transform: str
    fixture: Path  # the original fixture file
    rule: str  # the fixture's directory (JP001 ...)
    files: dict[str, str]  # file name -> text
    positive: bool
    codes: list[str]  # the ruleid code (positive) or the ok codes (near miss)
    pattern: str | None  # what a positive must raise (re.search on "Type: message")

    @property
    def key(self) -> str:
        return content_hash(self.rule, self.files)

    def write(self, root: Path) -> Path:
        d = root / self.id / self.rule
        d.mkdir(parents=True, exist_ok=True)
        for name, text in self.files.items():
            (d / name).parent.mkdir(parents=True, exist_ok=True)
            (d / name).write_text(text, encoding="utf-8")
        return d

    @property
    def main_file(self) -> str:
        return self.fixture.name


def content_hash(rule: str, files: dict[str, str]) -> str:
    """sha256 of the variant's files (with their directory, which the harness reads) and the jax version."""
    h = hashlib.sha256()
    h.update(f"jax {JAX_VERSION}\n".encode())
    for name in sorted(files):
        h.update(f"{rule}/{name}\n".encode())
        data = files[name].encode("utf-8")
        h.update(f"{len(data)}\n".encode())
        h.update(data)
    return h.hexdigest()


def fixture_files(args: list[str] | None = None) -> list[Path]:
    if not args:
        return sorted(FIXTURES.glob("JP*/*.py"))
    out = []
    for a in args:
        p = Path(a)
        if not p.exists() and (FIXTURES / a).exists():
            p = FIXTURES / a
        out.extend(sorted(p.resolve().glob("*.py")) if p.is_dir() else [p.resolve()])
    return out


def variants_of(path: Path) -> list[Variant]:
    fx = parse(path)
    if fx.problems or fx.skip is not None:
        return []
    rule = path.parent.name
    if fx.positive:
        codes = [fx.ruleids[0]]
        pattern = fx.expect if fx.expect is not None else PREDICTED[fx.ruleids[0]]
    else:
        codes = sorted(set(fx.oks))
        pattern = None
    text = path.read_text(encoding="utf-8")
    try:
        # Parsed once for all transforms: half the generation time was re-parsing.
        src = transforms.Source(text)
    except SyntaxError:
        return []
    out = []
    carried = package_files(path, text)
    for name in transforms.TRANSFORMS:
        for i, cand in enumerate(transforms.variants_for(text, name, MAX_PER_TRANSFORM, src)):
            files = dict(carried)
            files.update({(path.name if k == transforms.MAIN else k): v for k, v in cand.items()})
            vid = f"{rule}/{path.stem}__{name}" + (f"__{i + 1}" if i else "")
            out.append(Variant(vid, name, path, rule, files, fx.positive, codes, pattern))
    return out


def original_of(path: Path) -> Variant | None:
    """The fixture itself as a pseudo-variant (transform "original"), so the oracle records
    its outcome too and a variant's error can be compared with the original's."""
    fx = parse(path)
    if fx.problems or fx.skip is not None:
        return None
    rule = path.parent.name
    codes = [fx.ruleids[0]] if fx.positive else sorted(set(fx.oks))
    pattern = (fx.expect if fx.expect is not None else PREDICTED[fx.ruleids[0]]) if fx.positive else None
    text = path.read_text(encoding="utf-8")
    files = package_files(path, text)
    files[path.name] = text
    return Variant(f"{rule}/{path.stem}", "original", path, rule, files, fx.positive, codes, pattern)


def package_files(path: Path, text: str) -> dict[str, str]:
    """The files of the packages beside a fixture that it imports (`from planning.jits
    import ...` with `planning/` next to it), so that its variants run as it does."""
    out: dict[str, str] = {}
    roots = set(re.findall(r"^\s*(?:from|import)\s+([A-Za-z_]\w*)", text, flags=re.M))
    for root in sorted(roots):
        package = path.parent / root
        if not package.is_dir():
            continue
        for f in sorted(package.rglob("*.py")):
            out[f.relative_to(path.parent).as_posix()] = f.read_text(encoding="utf-8")
    return out


def generate(args: list[str] | None = None) -> list[Variant]:
    paths = fixture_files(args)
    jobs = min(os.cpu_count() or 1, len(paths))
    if jobs < 2:
        return [v for path in paths for v in variants_of(path)]
    # Fixtures are independent; the order of the result is the fixtures' order either way.
    with multiprocessing.get_context("fork").Pool(jobs) as pool:
        return [v for vs in pool.imap(variants_of, paths, chunksize=4) for v in vs]


def originals(args: list[str] | None = None) -> list[Variant]:
    return [o for o in (original_of(p) for p in fixture_files(args)) if o is not None]


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("fixtures", nargs="*", help="fixture files or rule dirs (default: all)")
    ap.add_argument("--out", type=Path, help="write the variants under this directory")
    ap.add_argument("--list", action="store_true", help="print id and content hash of each variant")
    opts = ap.parse_args()
    variants = generate(opts.fixtures)
    if opts.out:
        for v in variants:
            v.write(opts.out)
    if opts.list:
        for v in variants:
            print(v.id, v.key)
    counts: dict[str, int] = {}
    for v in variants:
        counts[v.transform] = counts.get(v.transform, 0) + 1
    print(
        f"{len(variants)} variants: " + ", ".join(f"{t} {counts.get(t, 0)}" for t in transforms.TRANSFORMS),
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
