#!/usr/bin/env python3
"""Checks that every relative link and anchor in README.md, ARCHITECTURE.md and
docs/src/**/*.md resolves: the file exists, and a #fragment names a heading of the target
(GitHub's and mdBook's anchor rule: lower case, punctuation dropped, spaces to hyphens).
Exits 1 listing each broken link. Usage: scripts/check-doc-links.py [ROOT]"""
import pathlib
import re
import sys

ROOT = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else ".").resolve()
LINK = re.compile(r"\[(?:[^\[\]]|\[[^\]]*\])*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def prose(text):
    """The text outside fenced code blocks and inline code spans."""
    out, fenced = [], False
    for line in text.splitlines():
        if FENCE.match(line):
            fenced = not fenced
            continue
        if not fenced:
            out.append(re.sub(r"`[^`]*`", "", line))
    return out


def anchor(heading):
    h = re.sub(r"<[^>]+>", "", heading).strip().lower()
    h = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", h)
    h = re.sub(r"[^\w\- ]", "", h)
    return h.replace(" ", "-")


def anchors(path, cache={}):
    if path not in cache:
        seen, result, fenced = {}, set(), False
        for line in path.read_text(encoding="utf-8").splitlines():
            if FENCE.match(line):
                fenced = not fenced
                continue
            m = None if fenced else re.match(r"^#{1,6}\s+(.*?)\s*#*\s*$", line)
            if m:
                a = anchor(m.group(1))
                n = seen.get(a, 0)
                seen[a] = n + 1
                result.add(a if n == 0 else f"{a}-{n}")
        cache[path] = result
    return cache[path]


files = [ROOT / "README.md", ROOT / "ARCHITECTURE.md"]
files += sorted((ROOT / "docs" / "src").rglob("*.md"))
broken = 0
checked = 0
for f in files:
    for no, line in enumerate(prose(f.read_text(encoding="utf-8")), 1):
        for target in LINK.findall(line):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue  # http:, https:, mailto:
            checked += 1
            path, _, frag = target.partition("#")
            dest = (f.parent / path).resolve() if path else f
            where = f"{f.relative_to(ROOT)}: {target}"
            if not dest.exists():
                print(f"{where}: no such file")
                broken += 1
            elif frag and dest.suffix == ".md" and frag not in anchors(dest):
                print(f"{where}: no heading with anchor #{frag} in {dest.relative_to(ROOT)}")
                broken += 1
print(f"{checked} relative links checked, {broken} broken", file=sys.stderr)
sys.exit(1 if broken else 0)
