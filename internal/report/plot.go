package report

import (
	"bytes"
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/durabench/durabench/measure"
)

// The plots are drawn by gonum.org/v1/plot into SVG. Text is set in
// Liberation Sans, whose metrics gonum/plot carries; the fonts are not
// embedded (they would add hundreds of kilobytes per plot), so a viewer
// without Liberation Sans draws the same text in its own sans-serif face.

// sans is the face of every text in a plot.
var sans = font.Font{Typeface: "Liberation", Variant: "Sans"}

// Plot sizes: one column of the HTML page.
const (
	plotWidth  = 16 * vg.Centimeter
	plotHeight = 9 * vg.Centimeter
)

// newPlot returns a plot with a title and axis labels, all in sans.
func newPlot(title, x, y string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = x
	p.Y.Label.Text = y
	for _, t := range []*text.Style{&p.Title.TextStyle, &p.X.Label.TextStyle, &p.Y.Label.TextStyle,
		&p.X.Tick.Label, &p.Y.Tick.Label, &p.Legend.TextStyle} {
		t.Font.Typeface, t.Font.Variant = sans.Typeface, sans.Variant
	}
	p.Title.TextStyle.Font.Size = vg.Points(12)
	p.X.Tick.Marker, p.Y.Tick.Marker = plainTicks{}, plainTicks{}
	return p
}

// plainTicks are gonum's default ticks labelled with as few digits as each
// value needs ("25", "0.5"), not a fixed precision ("25.00").
type plainTicks struct{}

// Ticks returns the default ticks of [min, max], relabelled.
func (plainTicks) Ticks(min, max float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(min, max)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(ts[i].Value, 'g', 6, 64)
		}
	}
	return ts
}

// svgOf renders p as SVG of the given height, without the XML prolog, so
// that it can stand inside an HTML page.
func svgOf(p *plot.Plot, height vg.Length) ([]byte, error) {
	c := vgsvg.NewWith(vgsvg.UseWH(plotWidth, height))
	p.Draw(draw.New(c))
	var buf bytes.Buffer
	if _, err := c.WriteTo(&buf); err != nil {
		return nil, fmt.Errorf("report: drawing %q: %w", p.Title.Text, err)
	}
	b := buf.Bytes()
	if i := bytes.Index(b, []byte("<svg")); i > 0 {
		b = b[i:]
	}
	return b, nil
}

// colorOf is the i-th colour of a plot's lines.
func colorOf(i int) color.Color { return plotutil.DarkColors[i%len(plotutil.DarkColors)] }

// msTicks marks whole milliseconds every step ms on a linear axis.
type msTicks struct{ step float64 }

// Ticks returns the whole-millisecond ticks within [min, max].
func (t msTicks) Ticks(min, max float64) []plot.Tick {
	var ts []plot.Tick
	for v := math.Ceil(min/t.step) * t.step; v <= max+1e-9; v += t.step {
		ts = append(ts, plot.Tick{Value: v, Label: fmt.Sprintf("%g", v)})
	}
	return ts
}

// niceSteps are the bin widths a latency histogram may use, in µs: every
// one divides a millisecond or is a whole number of them, so bins line up
// with the whole-millisecond grid.
var niceSteps = []float64{1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000}

// maxHistogramBins caps the bins across a histogram's range.
const maxHistogramBins = 80

// histogramGrid chooses a histogram's range and bins for samples up to
// top ns: the range ends on a whole millisecond (at least 1), the bins are
// the narrowest nice width giving at most maxHistogramBins, and grid lines
// fall every gridMs whole milliseconds (at most about 12 of them).
func histogramGrid(top int64) (rangeMs, binUs, gridMs float64) {
	rangeMs = math.Max(1, math.Ceil(float64(top)/1e6))
	binUs = niceSteps[len(niceSteps)-1]
	for _, s := range niceSteps {
		if rangeMs*1000/s <= maxHistogramBins {
			binUs = s
			break
		}
	}
	gridMs = 1
	for _, g := range []float64{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000} {
		gridMs = g
		if rangeMs/g <= 12 {
			break
		}
	}
	rangeMs = math.Ceil(rangeMs/gridMs) * gridMs
	return rangeMs, binUs, gridMs
}

// rebin counts the distribution's samples into linear bins of binUs from 0
// to rangeMs, each fine bin by its midpoint; beyond counts the samples
// past the range.
func rebin(bins []measure.Bucket, rangeMs, binUs float64) (counts []float64, beyond int) {
	n := int(math.Round(rangeMs * 1000 / binUs))
	counts = make([]float64, n)
	for _, b := range bins {
		mid := (float64(b.Lo) + float64(b.Hi)) / 2 / 1e3 // µs
		i := int(mid / binUs)
		if i >= n {
			beyond += b.Count
			continue
		}
		counts[max(i, 0)] += float64(b.Count)
	}
	return counts, beyond
}

// latencyHistogram draws one method's latencies as the share of samples
// per bin on a linear millisecond axis with a grid line on whole
// milliseconds. top is the latency the range must reach (a little past
// p99); the caption says how many samples lie beyond it.
func latencyHistogram(title string, bins []measure.Bucket, n int, top int64) (*plot.Plot, string, error) {
	rangeMs, binUs, gridMs := histogramGrid(top)
	counts, beyond := rebin(bins, rangeMs, binUs)
	hb := make([]plotter.HistogramBin, len(counts))
	for i, c := range counts {
		lo := float64(i) * binUs / 1000
		hb[i] = plotter.HistogramBin{Min: lo, Max: lo + binUs/1000, Weight: 100 * c / float64(n)}
	}
	p := newPlot(title, "latency of one write + sync (ms)", "% of samples")
	h := &plotter.Histogram{Bins: hb, Width: binUs / 1000, FillColor: colorOf(0)}
	h.LineStyle.Width = 0
	grid := plotter.NewGrid()
	grid.Horizontal.Width = 0
	grid.Vertical.Color = color.Gray{Y: 160}
	grid.Vertical.Dashes = nil
	p.Add(grid, h)
	p.X.Min, p.X.Max = 0, rangeMs
	p.X.Tick.Marker = msTicks{step: gridMs}
	p.Y.Min = 0
	caption := fmt.Sprintf("%s bins; grid lines every %g ms", formatUs(binUs), gridMs)
	if beyond > 0 {
		caption += fmt.Sprintf("; %d of %d samples (%.2f %%) lie beyond %g ms and are not drawn", beyond, n, 100*float64(beyond)/float64(n), rangeMs)
	}
	return p, caption, nil
}

// formatUs names a bin width: "50 µs", "1 ms".
func formatUs(us float64) string {
	if us >= 1000 {
		return fmt.Sprintf("%g ms", us/1000)
	}
	return fmt.Sprintf("%g µs", us)
}

// series is one named line of a plot; a dashed line shares the colour of
// the solid one before it (p99 after p50 of the same method).
type series struct {
	name   string
	xys    plotter.XYs
	dashed bool
}

// cdfPoints returns the cumulative share of samples at or below each
// bin's upper edge, in ms.
func cdfPoints(bins []measure.Bucket, n int) plotter.XYs {
	xys := make(plotter.XYs, 0, len(bins)+1)
	cum := 0
	if len(bins) > 0 {
		xys = append(xys, plotter.XY{X: math.Max(float64(bins[0].Lo), 1) / 1e6, Y: 0})
	}
	for _, b := range bins {
		cum += b.Count
		xys = append(xys, plotter.XY{X: float64(b.Hi) / 1e6, Y: float64(cum) / float64(n)})
	}
	return xys
}

// linesPlot draws each series as a line, with its points marked if
// marks; logX puts x on a log scale.
func linesPlot(title, x, y string, ss []series, logX, marks bool) (*plot.Plot, error) {
	p := newPlot(title, x, y)
	grid := plotter.NewGrid()
	grid.Vertical.Color, grid.Horizontal.Color = color.Gray{Y: 200}, color.Gray{Y: 200}
	p.Add(grid)
	c := -1
	for _, s := range ss {
		if !s.dashed || c < 0 {
			c++
		}
		l, pts, err := plotter.NewLinePoints(s.xys)
		if err != nil {
			return nil, fmt.Errorf("report: %s, %s: %w", title, s.name, err)
		}
		i := c
		l.Color, pts.Color = colorOf(i), colorOf(i)
		if s.dashed {
			l.Dashes = []vg.Length{vg.Points(5), vg.Points(3)}
		}
		l.Width = vg.Points(1.5)
		pts.Shape = plotutil.Shape(i)
		if !marks {
			p.Add(l)
			p.Legend.Add(s.name, l)
			continue
		}
		p.Add(l, pts)
		p.Legend.Add(s.name, l, pts)
	}
	if logX {
		p.X.Scale = plot.LogScale{}
		p.X.Tick.Marker = logTicks{}
	}
	// Latency and rate curves rise to the right: the bottom right is
	// where they leave room for the legend.
	p.Legend.Top, p.Legend.Left = false, false
	return p, nil
}

// barsPlot draws one horizontal bar per label, top to bottom in the given
// order, with its value written at its end.
func barsPlot(title, x string, labels []string, values []float64, format func(float64) string) (*plot.Plot, error) {
	p := newPlot(title, x, "")
	n := len(values)
	// NominalY puts the first name at the bottom: reverse so the first row
	// of the table is the top bar.
	vs := make(plotter.Values, n)
	names := make([]string, n)
	for i := range values {
		vs[n-1-i], names[n-1-i] = values[i], labels[i]
	}
	bars, err := plotter.NewBarChart(vs, vg.Points(10))
	if err != nil {
		return nil, fmt.Errorf("report: %s: %w", title, err)
	}
	bars.Horizontal = true
	bars.Color = colorOf(0)
	bars.LineStyle.Width = 0
	grid := plotter.NewGrid()
	grid.Horizontal.Width = 0
	grid.Vertical.Color = color.Gray{Y: 200}
	p.Add(grid, bars)
	xys := make(plotter.XYs, n)
	texts := make([]string, n)
	for i, v := range vs {
		xys[i] = plotter.XY{X: v, Y: float64(i)}
		texts[i] = format(v)
	}
	lbl, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: texts})
	if err != nil {
		return nil, fmt.Errorf("report: %s: %w", title, err)
	}
	for i := range lbl.TextStyle {
		lbl.TextStyle[i].Font.Typeface, lbl.TextStyle[i].Font.Variant = sans.Typeface, sans.Variant
		lbl.TextStyle[i].Font.Size = vg.Points(8)
		lbl.TextStyle[i].YAlign = draw.YCenter
	}
	lbl.Offset = vg.Point{X: vg.Points(3)}
	p.Add(lbl)
	p.NominalY(names...)
	p.X.Min = 0
	top := 0.0
	for _, v := range values {
		top = math.Max(top, v)
	}
	p.X.Max = top * 1.25 // room for the value labels
	return p, nil
}

// barsHeight fits n bars.
func barsHeight(n int) vg.Length {
	return vg.Length(math.Max(float64(6*vg.Centimeter), float64(vg.Points(float64(18*n+70)))))
}

// markKnee rings the knee of the i-th curve at (x, y) and labels it.
func markKnee(p *plot.Plot, x, y float64, i int) error {
	pt, err := plotter.NewScatter(plotter.XYs{{X: x, Y: y}})
	if err != nil {
		return fmt.Errorf("report: knee: %w", err)
	}
	pt.Shape = draw.RingGlyph{}
	pt.Radius = vg.Points(7)
	pt.Color = colorOf(i)
	lbl, err := plotter.NewLabels(plotter.XYLabels{XYs: plotter.XYs{{X: x, Y: y}}, Labels: []string{fmt.Sprintf("knee: %g writers", x)}})
	if err != nil {
		return fmt.Errorf("report: knee: %w", err)
	}
	for j := range lbl.TextStyle {
		lbl.TextStyle[j].Font.Typeface, lbl.TextStyle[j].Font.Variant = sans.Typeface, sans.Variant
		lbl.TextStyle[j].Font.Size = vg.Points(9)
		lbl.TextStyle[j].Color = colorOf(i)
	}
	lbl.Offset = vg.Point{X: vg.Points(6), Y: vg.Points(-14)}
	p.Add(pt, lbl)
	return nil
}

// logTicks marks a log-scale axis at 1, 2 and 5 times each power of ten
// within [min, max], labelled, with unlabelled minor ticks between.
type logTicks struct{}

// Ticks returns the ticks within [min, max].
func (logTicks) Ticks(min, max float64) []plot.Tick {
	if min <= 0 || max <= min {
		return nil
	}
	var ts []plot.Tick
	for p := math.Pow(10, math.Floor(math.Log10(min))); p <= max; p *= 10 {
		for m := 1; m <= 9; m++ {
			v := float64(m) * p
			if v < min*(1-1e-9) || v > max*(1+1e-9) {
				continue
			}
			label := ""
			if m == 1 || m == 2 || m == 5 {
				label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			ts = append(ts, plot.Tick{Value: v, Label: label})
		}
	}
	return ts
}
