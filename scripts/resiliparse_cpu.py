"""CPU seconds resiliparse spends extracting the main text of every `*.html` file in the folders given
(issue 20: the single-page route against resiliparse, `docs/single-page.md`). Needs resiliparse
(`scripts/bench` installs it in its venv)."""
import pathlib, sys, time
from resiliparse.extract.html2text import extract_plain_text
from resiliparse.parse.encoding import bytes_to_str, detect_encoding

pages = []
for folder in sys.argv[1:]:
    for path in sorted(pathlib.Path(folder).glob("*.html")):
        pages.append(path.read_bytes())
start = time.process_time()
for raw in pages:
    extract_plain_text(bytes_to_str(raw, detect_encoding(raw)), main_content=True)
cpu = time.process_time() - start
print(f"resiliparse: {len(pages)} pages, {cpu:.2f} s CPU, {len(pages) / cpu:.0f} pages/s per core")
