package report

import (
	"bytes"
	"fmt"
	"html/template"
	"strings"
	"time"
)

// Markdown returns report.md: the same sections as the HTML page, its plots
// as images from plots/NAME.svg.
func (r *Report) Markdown() []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# durabench report\n\n")
	fmt.Fprintf(&b, "Run %s at %s: `%s`\n\n", r.Env.ID, r.Env.Time.Format(time.RFC3339), strings.Join(r.Env.CommandLine, " "))
	if r.Partial {
		fmt.Fprintf(&b, "> **Interrupted run.** Only the cases that finished before the interruption are here.\n\n")
	}
	fmt.Fprintf(&b, "## Environment\n\n")
	for _, w := range r.Env.Warnings {
		fmt.Fprintf(&b, "> **Warning:** %s\n\n", w)
	}
	fmt.Fprintf(&b, "```text\n%s```\n\n", r.envText())
	for _, s := range r.Sections {
		fmt.Fprintf(&b, "## %s\n\n%s\n\n", s.Title, s.Intro)
		for i, p := range s.Plots {
			fmt.Fprintf(&b, "![%s](%s/%s.svg)\n\n", p.Title, PlotDir, p.Name)
			if p.Caption != "" {
				fmt.Fprintf(&b, "*%s*\n\n", mdEscape(p.Caption))
			}
			if i < len(s.Beside) && s.Beside[i] != nil {
				mdTable(&b, *s.Beside[i])
			}
		}
		for _, t := range s.Tables {
			mdTable(&b, t)
		}
	}
	return b.Bytes()
}

// envText is the environment as durabench env prints it.
func (r *Report) envText() string {
	var b strings.Builder
	r.Env.Render(&b)
	return b.String()
}

// mdEscape keeps a caption's '*' and '_' from starting emphasis.
func mdEscape(s string) string {
	return strings.NewReplacer("*", `\*`, "_", `\_`, "|", `\|`).Replace(s)
}

// mdTable writes t as a GitHub-flavoured Markdown table.
func mdTable(b *bytes.Buffer, t Table) {
	if t.Title != "" {
		fmt.Fprintf(b, "**%s**\n\n", mdEscape(t.Title))
	}
	row := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			fmt.Fprintf(b, " %s |", mdEscape(c))
		}
		b.WriteString("\n")
	}
	row(t.Header)
	b.WriteString("|")
	for range t.Header {
		b.WriteString("---|")
	}
	b.WriteString("\n")
	for _, r := range t.Rows {
		row(r)
	}
	b.WriteString("\n")
}

// HTML returns report.html: one page that needs nothing else, its plots
// inline SVG. A script in it counts the plots the browser drew (an SVG with
// a non-empty box holding drawn shapes) and writes the count to the body's
// data-plots-rendered attribute, next to data-plots-expected.
func (r *Report) HTML() ([]byte, error) {
	type row struct {
		Plot   Plot
		SVG    template.HTML
		Beside *Table
	}
	type section struct {
		Section
		Rows []row
	}
	data := struct {
		*Report
		EnvText  string
		Time     string
		Command  string
		Expected int
		Sections []section
	}{Report: r, EnvText: r.envText(), Time: r.Env.Time.Format(time.RFC3339), Command: strings.Join(r.Env.CommandLine, " "), Expected: r.Plots()}
	for _, s := range r.Sections {
		sec := section{Section: s}
		for i, p := range s.Plots {
			// The SVG is gonum/plot's own output, its text escaped by vgsvg.
			rw := row{Plot: p, SVG: template.HTML(p.SVG)}
			if i < len(s.Beside) {
				rw.Beside = s.Beside[i]
			}
			sec.Rows = append(sec.Rows, rw)
		}
		data.Sections = append(data.Sections, sec)
	}
	var b bytes.Buffer
	if err := pageTemplate.Execute(&b, data); err != nil {
		return nil, fmt.Errorf("report: rendering HTML: %w", err)
	}
	return b.Bytes(), nil
}

var pageTemplate = template.Must(template.New("page").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>durabench report {{.Env.ID}}</title>
<style>
body { font-family: "Liberation Sans", Arial, Helvetica, sans-serif; margin: 1.5em auto; max-width: 78em; padding: 0 1em; color: #222; line-height: 1.4; }
h1 { margin-bottom: 0.2em; }
.meta { color: #555; font-size: 0.9em; }
code, pre { font-family: "Liberation Mono", Menlo, Consolas, monospace; font-size: 0.85em; }
pre { background: #f6f6f6; padding: 0.8em; overflow-x: auto; border-radius: 4px; }
.warn { background: #fff4e0; border-left: 5px solid #e08a00; padding: 0.5em 1em; margin: 0.8em 0; }
.partial { background: #fde8e8; border-left: 5px solid #c0392b; padding: 0.5em 1em; margin: 0.8em 0; font-weight: bold; }
.row { display: flex; flex-wrap: wrap; gap: 1.5em; align-items: flex-start; margin: 1em 0; }
figure.plot { margin: 0; flex: 0 1 auto; max-width: 100%; }
figure.plot svg { max-width: 100%; height: auto; display: block; }
figcaption { font-size: 0.85em; color: #444; max-width: 38em; }
table { border-collapse: collapse; font-size: 0.85em; margin: 0.5em 0 1.5em; }
th, td { border: 1px solid #ddd; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #f0f0f0; }
.beside { flex: 1 1 28em; }
caption { text-align: left; font-weight: bold; padding-bottom: 0.3em; }
</style>
</head>
<body data-plots-expected="{{.Expected}}" data-plots-rendered="not counted">
<h1>durabench report</h1>
<p class="meta">Run {{.Env.ID}} at {{.Time}}: <code>{{.Command}}</code></p>
{{if .Partial}}<div class="partial">Interrupted run: only the cases that finished before the interruption are here.</div>
{{end}}<section id="environment">
<h2>Environment</h2>
{{range .Env.Warnings}}<div class="warn"><strong>Warning:</strong> {{.}}</div>
{{end}}<pre>{{.EnvText}}</pre>
</section>
{{range .Sections}}<section>
<h2>{{.Title}}</h2>
<p>{{.Intro}}</p>
{{if .Beside}}{{range .Rows}}<div class="row">
{{template "figure" .}}
{{with .Beside}}<div class="beside">{{template "table" .}}</div>{{end}}
</div>
{{end}}{{else}}<div class="row">
{{range .Rows}}{{template "figure" .}}
{{end}}</div>
{{end}}{{range .Tables}}{{template "table" .}}{{end}}
</section>
{{end}}<script>
// Count the plots the browser drew: an SVG with a non-empty box on the
// page whose drawn shapes have a non-empty box too.
(function () {
  var n = 0;
  document.querySelectorAll("figure.plot svg").forEach(function (svg) {
    var box = svg.getBoundingClientRect();
    if (box.width <= 0 || box.height <= 0) { return; }
    var drawn = 0;
    svg.querySelectorAll("path, line, rect, polyline, polygon, circle, text").forEach(function (el) {
      var b = el.getBBox();
      if (b.width > 0 || b.height > 0) { drawn++; }
    });
    if (drawn > 0) { n++; }
  });
  document.body.setAttribute("data-plots-rendered", String(n));
})();
</script>
</body>
</html>
{{define "figure"}}<figure class="plot" id="{{.Plot.Name}}">
{{.SVG}}
<figcaption>{{.Plot.Caption}}</figcaption>
</figure>{{end}}
{{define "table"}}<table>
{{if .Title}}<caption>{{.Title}}</caption>{{end}}
<thead><tr>{{range .Header}}<th>{{.}}</th>{{end}}</tr></thead>
<tbody>
{{range .Rows}}<tr>{{range .}}<td>{{.}}</td>{{end}}</tr>
{{end}}</tbody>
</table>
{{end}}`))
