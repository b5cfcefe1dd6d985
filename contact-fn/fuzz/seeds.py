#!/usr/bin/env python3
"""Writes the unminimised seeds of contact-fn's fuzz targets into fuzz/seeds-raw/ (`make
fuzz-seeds` minimises them into fuzz/seeds/): bodies shaped like the tests' valid and hostile
submissions, and one small file of each type the contract takes."""
import io, json, os, pathlib, zipfile

here = pathlib.Path(__file__).parent
raw = here / "seeds-raw"

def put(target, name, data):
    d = raw / target
    d.mkdir(parents=True, exist_ok=True)
    (d / name).write_bytes(data if isinstance(data, bytes) else data.encode())

contact = {"name": "Ada Lovelace", "email": "ada@example.org", "company": "Analytical Engines Ltd",
           "countryCode": "+44", "phone": "20 7946 0958", "subject": "A new engine",
           "message": "Hello,\nwe would like to discuss a project.\nBest, Ada"}
enquiry = {"firstName": "Grace", "lastName": "Hopper", "email": "grace@example.org",
           "company": "Navy", "topic": "Compilers", "privacy": True, "newsletter": True}
# the first byte: content type (bits 0-1: JSON, url-encoded, multipart) and form (bits 2-3)
put("intake", "contact.json", b"\x00" + json.dumps(contact).encode())
put("intake", "enquiry.json", b"\x04" + json.dumps(enquiry).encode())
put("intake", "newsletter.json", b"\x08" + b'{"email":"a@example.org","privacy":true}')
put("intake", "repeated.json", b"\x00" + b'{"name":"a","name":"b","email":[1,{"x":null}]}')
from urllib.parse import urlencode
put("intake", "contact.form", b"\x01" + urlencode(contact).encode())
put("intake", "enquiry.form", b"\x05" + urlencode({**enquiry, "privacy": "on"}).encode() + b"&x=%ff%fe")

def multipart(fields, files):
    out = b""
    for k, v in fields.items():
        out += b'--fuzz\r\nContent-Disposition: form-data; name="%s"\r\n\r\n%s\r\n' % (k.encode(), v.encode())
    for name, ctype, data in files:
        out += (b'--fuzz\r\nContent-Disposition: form-data; name="attachments"; filename="%s"\r\n'
                b'Content-Type: %s\r\n\r\n' % (name.encode(), ctype.encode())) + data + b"\r\n"
    return out + b"--fuzz--\r\n"

pdf = b"%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n"
put("intake", "contact.multipart", b"\x02" + multipart(contact, [("brief.pdf", "application/pdf", pdf),
    ("notes.txt", "text/plain", "Grüße\n".encode())]))
put("intake", "empty-file.multipart", b"\x03" + multipart(contact, [("", "application/octet-stream", b"")]))

def odt():
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w") as z:
        z.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.text")
        z.writestr("content.xml", "<x/>")
    return b.getvalue()

def docx():
    b = io.BytesIO()
    with zipfile.ZipFile(b, "w", zipfile.ZIP_DEFLATED) as z:
        z.writestr("[Content_Types].xml", "<Types/>")
        z.writestr("word/document.xml", "<w:document/>")
    return b.getvalue()

put("file_type", "brief.pdf", pdf)
put("file_type", "dot.png", b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x00\x00\x00\x00")
put("file_type", "dot.jpg", b"\xff\xd8\xff\xe0\x00\x10JFIF\x00")
put("file_type", "dot.webp", b"RIFF\x1a\x00\x00\x00WEBPVP8L\x0d\x00\x00\x00")
put("file_type", "notes.txt", "\ufeffGrüße,\r\n\tline two\x0c\n".encode())
put("file_type", "controls.txt", b"a\xc2\x85b")
put("file_type", "letter.odt", odt())
put("file_type", "report.docx", docx())
put("file_type", "other.zip", b"PK\x03\x04" + b"\x00" * 26)

for i, text in enumerate(["Ada Lovelace", "=?utf-8?q?x?= Grüße", "Brief (final) \"v2\".pdf",
                          "名前.pdf", "a" * 300, "line\r\nbreak"]):
    put("header_names", f"names-{i}", text)
