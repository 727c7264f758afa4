"""trafilatura's extraction speed on the HTML responses of a WARC, as in this folder's README.

    python trafilatura.py WARC N

Reads every 200 response with an HTML Content-Type (decoded by the header's charset, else
UTF-8 with errors replaced), shuffles them with seed 7 and times `trafilatura.extract` on the
first N: CPU seconds of the extract calls only.
"""
import random, re, sys, time
from warcio.archiveiterator import ArchiveIterator
import trafilatura
pages = []
with open(sys.argv[1], 'rb') as f:
    for rec in ArchiveIterator(f):
        if rec.rec_type != 'response' or rec.http_headers is None: continue
        if rec.http_headers.get_statuscode() != '200': continue
        ct = rec.http_headers.get_header('Content-Type') or ''
        if 'html' not in ct.lower(): continue
        m = re.search(r'charset=([\w-]+)', ct, re.I)
        body = rec.content_stream().read()
        try: html = body.decode(m.group(1) if m else 'utf-8', errors='replace')
        except LookupError: html = body.decode('utf-8', errors='replace')
        pages.append(html)
random.Random(7).shuffle(pages)
n = int(sys.argv[2])
start = time.process_time(); wall = time.time()
for html in pages[:n]:
    trafilatura.extract(html)
cpu = time.process_time() - start
print(f"trafilatura {trafilatura.__version__}: {n} of {len(pages)} pages, {cpu:.2f} CPU s, {n/cpu:.1f} pages/s per core, wall {time.time()-wall:.1f} s")
