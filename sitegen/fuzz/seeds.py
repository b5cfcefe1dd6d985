#!/usr/bin/env python3
"""Writes the unminimised seeds of sitegen's fuzz targets into fuzz/seeds-raw/ (`make
fuzz-seeds` minimises them into fuzz/seeds/): the real content's articles (with their
translations), the tests' fixture articles, their bodies, and the real redirects table."""
import pathlib

here = pathlib.Path(__file__).parent
repo = here.parent.parent
raw = here / "seeds-raw"

# An article's first few kB hold every kind of thing its whole does; the seeds stay small.
MAX_SEED = 3000

def cut(text):
    """`text` up to its last line break before MAX_SEED bytes."""
    if len(text.encode()) <= MAX_SEED:
        return text
    head = text.encode()[:MAX_SEED].decode(errors="ignore")
    return head[: head.rfind("\n") + 1]

def put(target, name, data):
    d = raw / target
    d.mkdir(parents=True, exist_ok=True)
    (d / name).write_bytes(data if isinstance(data, bytes) else data.encode())

articles = sorted((repo / "content" / "articles").glob("*.md"))
articles += sorted((repo / "sitegen" / "tests" / "fixtures" / "content").glob("*/articles/*.md"))
for i, path in enumerate(articles):
    text = path.read_text()
    parts = path.name.split(".")
    if len(parts) == 3:  # a translation: read with its source, after a NUL
        source = path.with_name(parts[0] + ".md")
        put("front_matter", f"{i}-{path.name}", cut(source.read_text()) + "\0" + cut(text))
    else:
        put("front_matter", f"{i}-{path.name}", cut(text))
    body = text.split("\n---\n", 1)[-1]
    put("markdown", f"{i}-{path.name}", cut(body))
redirects = (repo / "content" / "redirects.yaml").read_text()
put("redirects", "redirects.yaml", redirects)
put("headers", "site.yaml", (repo / "content" / "site.yaml").read_text())
