#!/usr/bin/env python3
"""Regenerates the CDX reference fixtures under testdata/cdx/ from the Python tools dbce matches.

Needs `cdxj-indexer==1.5.0` (which brings `warcio` and `surt`) in the interpreter that runs it:

    python3 -m pip install cdxj-indexer==1.5.0
    python3 scripts/cdx-fixtures.py

Writes:
- testdata/cdx/surt.jsonl: one `[url, key]` JSON array per line, `key` being what cdxj-indexer
  uses as the line key (`surt.surt(url)`, or the url itself when `surt` raises);
- testdata/cdx/samples.cdxj and samples.cdx11: cdxj-indexer's output (default and `--cdx11`) for
  the files listed in testdata/cdx/samples.txt, all in one run.
"""

import contextlib
import io
import json
import os

import surt
from cdxj_indexer.main import main as cdxj_indexer

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CDX = os.path.join(ROOT, "testdata", "cdx")
WARC = os.path.join(ROOT, "testdata", "warc")

URLS = [
    # empty, blank, special prefixes
    "",
    " ",
    "filedesc://example.arc",
    "filedescription",
    # scheme handling
    "example.com",
    "example.com/a/b",
    "Example.COM:8080/x",
    "localhost:8080/x",
    "http://example.com",
    "http://example.com/",
    "HTTP://EXAMPLE.COM/",
    "https://example.com/",
    "ftp://example.com/pub/",
    "http://http://example.com/",
    "http://https://example.com/",
    "https://http://https://example.com/a",
    "http:////////www.vikings.com",
    "http:example.com/a",
    "http:///",
    "http://",
    "http:",
    "mailto:Someone@Example.com",
    "dns:WWW.Example.com",
    "urn:uuid:ABC-123",
    "metadata://gnu.org/software/wget/warc/MANIFEST.txt",
    "file:///example%20with%20spaces.png",
    "javascript:alert('Hi')",
    "1http://example.com/",
    # whitespace
    "  http://example.com/  ",
    "http://exa\tmple.com/a\nb\rc",
    "http://example.com/a b",
    "\x0bhttp://example.com/\x0c",
    # www and hosts
    "http://www.example.com/",
    "http://www2.example.com/",
    "http://www123.example.com/",
    "http://wwwa.example.com/",
    "http://www.www.example.com/",
    "http://www.com/",
    "http://www./",
    "http://WWW.Example.Co.UK/",
    "http://example.com./",
    "http://.example.com/",
    "http://a..b...c....d/",
    "http://./",
    "http://../a/./b",
    "http://%FF/a/../b",
    "http://%C3%BC%FF.de/",
    "http://a.b.c.%E4%BE%8B/x",
    "http://1.2.3.4%0A/",
    "http://1.2.3.4%20/",
    "http://exa%6Dple.com/",
    "http://exa%256Dple.com/",
    "http://ex%20ample.com/",
    "http://ex ample.com/",
    "http://ex%zzample.com/",
    "http://ex_ample.com/",
    "http://ex\"ample.com/",
    "http://[::1]/",
    "http://[2001:DB8::1]:8080/a",
    "http://[fe80::1%25eth0]/",
    "http://[::1/",
    "http://user:Pass@Example.com/",
    "http://user@example.com:80/",
    "http://a@b@example.com/",
    "http://:80/foo",
    "http://:8080/foo/bar",
    # ports
    "http://example.com:80/",
    "http://example.com:8080/",
    "http://example.com:443/",
    "https://example.com:443/",
    "https://example.com:80/",
    "HTTPS://example.com:443/",
    "ftp://example.com:21/",
    "http://example.com:0/",
    "http://example.com:080/",
    "http://example.com:/",
    "http://example.com::/",
    "http://example.com:65535/",
    "http://example.com:65536/",
    "http://example.com:abc/",
    "http://example.com:1:2/",
    "http://example.com:-1/",
    "dns:example.com:53",
    # IP addresses
    "http://127.0.0.1/",
    "http://127.0.0.1:8080/",
    "http://192.168.1.1/a",
    "http://3232235777/",
    "http://4294967297/",
    "http://0/",
    "http://0123/",
    "http://127.1/",
    "http://1.2.3/",
    "http://1.010.0.1/",
    "http://010.1.1.1/",
    "http://00.1/",
    "http://1.2.3.999/",
    "http://1.2.3.256/",
    "http://1.2.65535/",
    "http://1.2.65536/",
    "http://1.16777215/",
    "http://1.2.3.4.5/",
    "http://08.1.1.1/",
    "http://1.09.1.1/",
    "http://0x7f.0.0.1/",
    "http://999999999999999999999999/",
    # IDN
    "http://b\u00fccher.de/",
    "http://B\u00dcCHER.de/",
    "http://b%C3%BCcher.de/",
    "http://stra\u00dfe.de/",
    "http://\u03c2\u03c3.gr/",
    "http://\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444/",
    "http://\u4f8b\u3048.\u30c6\u30b9\u30c8/",
    "http://\u4f8b\u3048\u3002\u30c6\u30b9\u30c8/",
    "http://\uff45\uff58\uff41\uff4d\uff50\uff4c\uff45.com/",
    "http://xn--bcher-kva.de/",
    "http://XN--BCHER-KVA.de/",
    "http://b\u00fccher..de/",
    "http://b\u00fccher.de./",
    "http://\u00fc.xn--abc.de/",
    "http://%C3%28.com/",
    "http://a\u00ad\u00fc.de/",
    "http://\u2665.com/",
    "http://\ue000.com/",
    "http://" + "\u00fc" * 70 + ".com/",
    # paths
    "http://example.com/a/b/../c",
    "http://example.com/a/./b/",
    "http://example.com/../a",
    "http://example.com/a/../../b",
    "http://example.com//a//b//",
    "http://example.com/a/b/",
    "http://example.com/a/b//",
    "http://example.com/A/B.HTML",
    "http://example.com/%7Euser/",
    "http://example.com/~user/",
    "http://example.com/a%2Fb",
    "http://example.com/a%252Fb",
    "http://example.com/%2e%2e/a",
    "http://example.com/a%20b",
    "http://example.com/a+b",
    "http://example.com/caf\u00e9",
    "http://example.com/caf%C3%A9",
    "http://example.com/caf%c3%a9",
    "http://example.com/%E9",
    "http://example.com/a%",
    "http://example.com/a%2",
    "http://example.com/a%zz",
    "http://example.com/a%25",
    "http://example.com/a%00b",
    "http://example.com/a%3Fb",
    "http://example.com/a%23b",
    "http://example.com/a\"b<c>d{e}|f\\g^h`i",
    "http://example.com/\x7f",
    "http://example.com/\x01",
    "http://example.com/a;jsessionid=1",
    "mailto:A%20B@Example.com",
    "urn:a/../b",
    # session ids in paths
    "http://example.com/(S(abcdefghijklmnopqrstuvwx))/page.aspx",
    "http://example.com/x/(a(abcdefghijklmnopqrstuvwx)b(abcdefghijklmnopqrstuvwx))/y/page.aspx?a=b",
    "http://example.com/(abcdefghijklmnopqrstuvwx)/page.aspx",
    "http://example.com/a/(ABCDEFGHIJKLMNOPQRSTUVWX)/b/page.ASPX",
    "http://example.com/(abcdefghijklmnopqrstuvwx)/page.html",
    "http://example.com/(abcdefghijklmnopqrstuvwx)/.aspx",
    "http://example.com/(abcdefghijklmnopqrstuvwx)/a%3F.aspx",
    "http://example.com/(abcdefghijklmnopqrstuvwx)/(bcdefghijklmnopqrstuvwxy)/c.aspx",
    # queries
    "http://example.com/?",
    "http://example.com?",
    "http://example.com/a?",
    "http://example.com/#?",
    "http://example.com/?#",
    "http://example.com/?a",
    "http://example.com/?a=",
    "http://example.com?b=2&a=1",
    "http://example.com/?b=2&a=1&a=0",
    "http://example.com/?a=1&a",
    "http://example.com/?a-b&a=1",
    "http://example.com/?a&&b",
    "http://example.com/?&",
    "http://example.com/?=&=",
    "http://example.com/?B=X&a=Y",
    "http://example.com/?q=a%20b+c",
    "http://example.com/?q=%2520",
    "http://example.com/?q=a b",
    "http://example.com/?q=caf\u00e9",
    "http://example.com/?q=%C3%A9",
    "http://example.com/?q=%e9",
    "http://example.com/?q=a#frag",
    "http://example.com/#frag",
    "http://example.com/a#frag?x",
    "http://example.com/?q=%23",
    "http://example.com/?q=%",
    "http://example.com/?jsessionid=0123456789abcdef0123456789ABCDEF",
    "http://example.com/?a=1&jsessionid=0123456789abcdef0123456789ABCDEF&b=2",
    "http://example.com/?a=1&jsessionid=0123456789abcdef0123456789ABCDEF",
    "http://example.com/?jsessionid=0123456789abcdef0123456789ABCDEF&",
    "http://example.com/?x=1jsessionid=0123456789abcdef0123456789ABCDEFz",
    "http://example.com/?phpsessid=0123456789abcdef0123456789abcdef&b=1",
    "http://example.com/?PHPSESSID=0123456789abcdef0123456789abcdef",
    "http://example.com/?sid=0123456789abcdef0123456789abcdef&sid=0123456789abcdef0123456789abcdef",
    "http://example.com/?mysid=0123456789abcdef0123456789abcdef",
    "http://example.com/?sid=0123456789abcdef0123456789abcde",
    "http://example.com/?ASPSESSIONIDabcdefgh=abcdefghijklmnopqrstuvwx&z=1",
    "http://example.com/?aspsessionidABCDEFGH=ABCDEFGHIJKLMNOPQRSTUVWX",
    "http://example.com/?cfid=123&cftoken=456",
    "http://example.com/?a=b&cfid=123&cftoken=456&c=d",
    "http://example.com/?cfid=1&x=2&cftoken=456",
    "http://example.com/?cfid=&cftoken=456",
    # real-world shapes
    "http://example.com/index.cfm?FuseAction=Email&EmailTitle=Examples%20From%20The%20Live%20Web&IsPopUp=False",
    "http://httpbin.org/post?foo=bar",
    "https://www.iana.org/_css/2015.1/print.css",
    "https://en.wikipedia.org/wiki/Main_Page",
    "http://Example.com:80/Foo/Bar/?B=1&A=2#Top",
]


def key(url):
    try:
        return surt.surt(url)
    except Exception:  # cdxj-indexer falls back to the url, whatever the error
        return url


def write_surt_cases():
    with open(os.path.join(CDX, "surt.jsonl"), "w", encoding="ascii", newline="\n") as out:
        for url in URLS:
            out.write(json.dumps([url, key(url)]) + "\n")


def write_sample_indexes():
    with open(os.path.join(CDX, "samples.txt"), encoding="utf-8") as listing:
        names = [line.strip() for line in listing if line.strip()]
    paths = [os.path.join(WARC, name) for name in names]
    for suffix, flags in (("cdxj", []), ("cdx11", ["--cdx11"])):
        buffer = io.StringIO()
        with contextlib.redirect_stdout(buffer):
            cdxj_indexer(flags + paths)
        with open(os.path.join(CDX, "samples." + suffix), "w", encoding="utf-8", newline="\n") as out:
            out.write(buffer.getvalue())


if __name__ == "__main__":
    write_surt_cases()
    write_sample_indexes()
