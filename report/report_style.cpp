#include "report/report_style.h"

namespace qnm::report {

const char* const kReportCss = R"CSS(
body { font-family: sans-serif; margin: 0 auto; max-width: 1150px; padding: 0 1.2em 3em; color: #222; line-height: 1.4; }
h1 { border-bottom: 2px solid #2166ac; padding-bottom: .2em; }
h2 { border-bottom: 1px solid #ccc; margin-top: 2em; }
nav#toc { background: #f4f6f9; border: 1px solid #d8dde6; padding: .5em 1em; }
nav#toc ol { margin: .3em 0; columns: 2; }
table { border-collapse: collapse; margin: .6em 0; font-size: 13px; }
th, td { border: 1px solid #ccc; padding: 2px 7px; }
th { background: #eef1f5; text-align: left; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
table.sortable th { cursor: pointer; }
table.sortable th[data-dir=asc]::after { content: " \25B2"; }
table.sortable th[data-dir=desc]::after { content: " \25BC"; }
tr.flagged td { background: #fff3cd; }
.note { color: #555; font-size: 13px; }
.warn { color: #8a4b00; }
code, .formula { font-family: monospace; font-size: 12px; word-break: break-word; }
figure { display: inline-block; margin: .4em .6em .8em 0; vertical-align: top; }
figcaption { font-size: 12px; max-width: 420px; }
svg.chart { max-width: 100%; height: auto; background: #fff; border: 1px solid #eee; }
.ok { color: #1a7f37; } .bad { color: #b2182b; }
@media print {
  nav#toc { display: none; }
  body { max-width: none; font-size: 10pt; }
  section.series { break-before: page; }
  figure, table { break-inside: avoid; }
  a { color: inherit; text-decoration: none; }
}
)CSS";

const char* const kSortScript = R"JS(
document.querySelectorAll('table.sortable th').forEach(function (th) {
  th.addEventListener('click', function () {
    var body = th.closest('table').tBodies[0], i = th.cellIndex, asc = th.dataset.dir !== 'asc';
    th.closest('tr').querySelectorAll('th').forEach(function (h) { delete h.dataset.dir; });
    th.dataset.dir = asc ? 'asc' : 'desc';
    var key = function (row) { var c = row.cells[i]; return c.dataset.sort !== undefined ? c.dataset.sort : c.textContent; };
    Array.prototype.slice.call(body.rows).sort(function (a, b) {
      var x = key(a), y = key(b), nx = parseFloat(x), ny = parseFloat(y);
      var c = (x === '' || y === '') ? (x === '') - (y === '') : (!isNaN(nx) && !isNaN(ny)) ? nx - ny : x.localeCompare(y);
      return asc ? c : -c;
    }).forEach(function (row) { body.appendChild(row); });
  });
});
document.documentElement.setAttribute('data-sort-ready', 'yes');  // the browser test's sign that the script ran
)JS";

}  // namespace qnm::report
