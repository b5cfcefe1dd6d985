#!/usr/bin/env python3
"""Writes the unminimised seeds of sitegen's fuzz targets into fuzz/seeds-raw/ (`make
fuzz-seeds` minimises them into fuzz/seeds/): the real content's articles (with their
translations), the tests' fixture articles, their bodies, and the real redirects table."""
import pathlib

here = pathlib.Path(__file__).parent
repo = here.parent.parent
raw = here / "seeds-raw"

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
        put("front_matter", f"{i}-{path.name}", source.read_text() + "\0" + text)
    else:
        put("front_matter", f"{i}-{path.name}", text)
    body = text.split("\n---\n", 1)[-1]
    put("markdown", f"{i}-{path.name}", body)
redirects = (repo / "content" / "redirects.yaml").read_text()
put("redirects", "redirects.yaml", redirects)
put("headers", "site.yaml", (repo / "content" / "site.yaml").read_text())
