#!/usr/bin/env bash
# The report of the bundled series and a trace, loaded in a real browser (Debian's
# chromium, headless): every section present in the rendered DOM, every chart
# an SVG with non-empty paths, the sort script ran without a console error,
# nothing referenced from the network; screenshots of the top and of the
# whole page are left in OUT_DIR to look at. The study has a what-if
# (`--whatif`): the series' what-if part (table, both curves, the gain) and the
# trace's suggestion ranking must render too; a page of the what-if parts
# alone is screenshot as whatif.png. Exit 77 (ctest SKIP_RETURN_CODE)
# without chromium; scripts/setup.sh installs it, so CI has it.
# Usage: report_browser_test.sh QNM_PREDICT OUT_DIR
set -euo pipefail
qnm=$1
out=$2
browser=$(command -v chromium || command -v chromium-browser || true)
if [ -z "$browser" ]; then
  echo "report_browser: skipped: chromium not installed (scripts/setup.sh installs it)"
  exit 77
fi
command -v python3 >/dev/null || { echo "report_browser: skipped: python3 not installed"; exit 77; }
rm -rf "$out"
mkdir -p "$out"
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
# The bundled series and a trace study (a 32-rank Score-P trace).
trace="$(cd "$(dirname "$0")" && pwd)/data/otf2/tracer-stencil4d-32"
"$qnm" report --procs 1..1024:x2 --trace "$trace" --whatif 'BALANCE REGION "computation"' \
  -o "$out/report.html" 2>"$out/report.log"

# Offline by construction: every host name resolves to nothing, so a fetch
# would fail and show in the log, never reach the network.
run_chromium() {
  timeout 120 "$browser" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run \
    --disable-background-networking --disable-component-update --disable-sync \
    --host-resolver-rules="MAP * ~NOTFOUND" --enable-logging=stderr --v=0 \
    --user-data-dir="$profile" "$@"
}
run_chromium --dump-dom "file://$out/report.html" >"$out/dom.html" 2>"$out/chromium.log"
run_chromium --window-size=1200,1400 --screenshot="$out/top.png" "file://$out/report.html" 2>>"$out/chromium.log" >/dev/null
# The whole page in one tall image (headless chromium paints a jump to
# #series-1 as a blank screen, so a section is cut out of this one instead).
run_chromium --window-size=1200,9000 --hide-scrollbars --screenshot="$out/page.png" "file://$out/report.html" \
  2>>"$out/chromium.log" >/dev/null
# The what-if parts alone (the page's stylesheet, the series' what-if part and
# the trace's suggestions), so they can be looked at in one screenshot.
python3 - "$out" <<'PY'
import os, re, sys
out = sys.argv[1]
page = open(os.path.join(out, "report.html"), encoding="utf-8").read()
head = page[:page.index("<body>") + len("<body>")]
part = re.search(r"<h3>What-if: .*?(?=</section>)", page, re.S)
suggestions = re.search(r"<h3>What-if suggestions.*?(?=<h3>Region names)", page, re.S)
body = (part.group(0) if part else "") + (suggestions.group(0) if suggestions else "")
open(os.path.join(out, "whatif.html"), "w", encoding="utf-8").write(head + body + "</body></html>\n")
PY
run_chromium --window-size=1000,1900 --hide-scrollbars --screenshot="$out/whatif.png" "file://$out/whatif.html" \
  2>>"$out/chromium.log" >/dev/null

python3 - "$out" <<'PY'
import html.parser, os, re, sys
out = sys.argv[1]
dom = open(os.path.join(out, "dom.html"), encoding="utf-8").read()
log = open(os.path.join(out, "chromium.log"), encoding="utf-8", errors="replace").read()
failures = []

class Page(html.parser.HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids, self.charts, self.refs, self.in_chart = set(), [], [], 0
        self.in_whatif, self.whatif_charts, self.whatif_tables = 0, 0, 0
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a: self.ids.add(a["id"])
        for key in ("src", "href"):
            if key in a: self.refs.append(a[key])
        if tag == "figure" and "whatif-chart" in (a.get("class") or ""): self.in_whatif = 1
        if tag == "table" and "whatif" in (a.get("class") or "").split(): self.whatif_tables += 1
        if tag == "svg" and "chart" in (a.get("class") or ""):
            self.charts.append({"paths": 0, "data": 0, "whatif": self.in_whatif})
            self.in_chart = 1
        elif tag == "path" and self.in_chart:
            if (a.get("d") or "").strip():
                self.charts[-1]["paths"] += 1
                if (a.get("class") or "") in ("line", "markers", "bar", "area"):
                    self.charts[-1]["data"] += 1
    def handle_endtag(self, tag):
        if tag == "svg": self.in_chart = 0
        if tag == "figure": self.in_whatif = 0

page = Page()
page.feed(dom)
for section in ("toc", "inputs", "summary", "series-1", "trace-1", "glossary", "summary-table"):
    if section not in page.ids: failures.append("section #%s missing from the rendered DOM" % section)
if len(page.charts) < 5: failures.append("only %d charts rendered" % len(page.charts))
for i, chart in enumerate(page.charts):
    if chart["data"] == 0: failures.append("chart %d has no data path" % (i + 1))
# What-if: the series' table, both curves, the gain chart and the trace's suggestion ranking.
whatif_charts = [c for c in page.charts if c["whatif"]]
if page.whatif_tables < 1: failures.append("the what-if table is missing")
if len(whatif_charts) < 3: failures.append("only %d what-if charts rendered (both curves, gain, suggestions)" % len(whatif_charts))
for i, chart in enumerate(whatif_charts):
    if chart["data"] < 1: failures.append("what-if chart %d has no data path" % (i + 1))
if "What-if suggestions" not in dom: failures.append("the trace's what-if suggestions are missing")
for ref in page.refs:
    if re.match(r"\s*(https?:)?//", ref, re.I): failures.append("network reference: " + ref)
if 'data-sort-ready="yes"' not in dom: failures.append("the sort script did not run")
for line in log.splitlines():
    if "CONSOLE" in line or "Uncaught" in line: failures.append("console: " + line.strip())
for png in ("top.png", "page.png", "whatif.png"):
    path = os.path.join(out, png)
    if not os.path.exists(path) or os.path.getsize(path) < 10000: failures.append(png + " not written")
if failures:
    print("report_browser: FAILED\n  " + "\n  ".join(failures))
    sys.exit(1)
print("report_browser: %d sections, %d charts with data paths (%d what-if), no network reference; screenshots in %s"
      % (len(page.ids), len(page.charts), len(whatif_charts), out))
PY
