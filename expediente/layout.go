package expediente

import (
	_ "embed"
	"fmt"
	"strings"

	"github.com/signintech/gopdf"
)

// DejaVu Sans (fonts/LICENSE): every Spanish character, subset into each PDF by gopdf.
var (
	//go:embed fonts/DejaVuSans.ttf
	regularTTF []byte
	//go:embed fonts/DejaVuSans-Bold.ttf
	boldTTF []byte
)

// The page, in points (A4).
const (
	pageW      = 595.0
	pageH      = 842.0
	marginX    = 50.0
	marginTop  = 56.0
	contentEnd = pageH - 64.0 // below it: the footer
	contentW   = pageW - 2*marginX
	labelW     = 170.0 // the label column of key–value rows
	bodySize   = 9.5
	lineH      = 13.0
)

// The typefaces' family names in the document.
const (
	regular = "DejaVuSans"
	bold    = "DejaVuSans-Bold"
)

// layout writes top-down onto A4 pages and opens a new page when the next block does not fit.
// The first error sticks; later calls do nothing, and done returns it.
type layout struct {
	pdf *gopdf.GoPdf
	y   float64
	err error
	// onNewPage redraws what must repeat at the top of a continued block (a table's header).
	onNewPage func()
}

func newLayout(info gopdf.PdfInfo) (*layout, error) {
	pdf := &gopdf.GoPdf{}
	pdf.Start(gopdf.Config{PageSize: *gopdf.PageSizeA4, Unit: gopdf.UnitPT})
	pdf.SetInfo(info)
	if err := pdf.AddTTFFontData(regular, regularTTF); err != nil {
		return nil, fmt.Errorf("expediente: font: %w", err)
	}
	if err := pdf.AddTTFFontData(bold, boldTTF); err != nil {
		return nil, fmt.Errorf("expediente: bold font: %w", err)
	}
	l := &layout{pdf: pdf}
	l.newPage()
	return l, l.err
}

func (l *layout) fail(err error) {
	if err != nil && l.err == nil {
		l.err = err
	}
}

func (l *layout) newPage() {
	l.pdf.AddPage()
	l.y = marginTop
	if l.onNewPage != nil {
		l.onNewPage()
	}
}

// need opens a new page unless h more points fit on this one.
func (l *layout) need(h float64) {
	if l.y+h > contentEnd {
		l.newPage()
	}
}

func (l *layout) font(family string, size float64) {
	l.fail(l.pdf.SetFont(family, "", size))
}

func (l *layout) gray(v uint8) { l.pdf.SetTextColor(v, v, v) }

// text writes one line with its top-left corner at x, y.
func (l *layout) text(x, y float64, s string) {
	if l.err != nil || s == "" {
		return
	}
	l.pdf.SetXY(x, y)
	l.fail(l.pdf.Cell(nil, s))
}

// wrap splits s into lines no wider than w in the current font: at spaces, and inside a word only
// when the word alone is wider (a SHA-256, a long reference).
func (l *layout) wrap(s string, w float64) []string {
	if l.err != nil {
		return nil
	}
	var out []string
	for _, para := range strings.Split(s, "\n") {
		if strings.TrimSpace(para) == "" {
			out = append(out, "")
			continue
		}
		lines, err := l.pdf.SplitTextWithWordWrap(para, w)
		l.fail(err)
		out = append(out, lines...)
	}
	return out
}

// title is the document's title and subtitle.
func (l *layout) title(s, sub string) {
	l.font(bold, 16)
	l.pdf.SetTextColor(20, 40, 90)
	for _, line := range l.wrap(s, contentW) {
		l.text(marginX, l.y, line)
		l.y += 21
	}
	l.font(regular, bodySize)
	l.gray(90)
	for _, line := range l.wrap(sub, contentW) {
		l.text(marginX, l.y, line)
		l.y += lineH
	}
	l.y += 6
}

// heading starts a section: it keeps its first lines on the same page as the heading.
func (l *layout) heading(n int, s string) {
	l.need(18 + 3*lineH)
	l.y += 8
	l.font(bold, 12)
	l.pdf.SetTextColor(20, 40, 90)
	l.text(marginX, l.y, fmt.Sprintf("%d. %s", n, s))
	l.y += 16
	l.pdf.SetStrokeColor(20, 40, 90)
	l.pdf.SetLineWidth(0.8)
	l.pdf.Line(marginX, l.y, pageW-marginX, l.y)
	l.y += 6
}

// subheading is a bold line inside a section.
func (l *layout) subheading(s string) {
	l.need(2 * lineH)
	l.y += 3
	l.font(bold, 10)
	l.gray(30)
	for _, line := range l.wrap(s, contentW) {
		l.text(marginX, l.y, line)
		l.y += lineH + 1
	}
}

// field is a label and its value; the value wraps in its column.
func (l *layout) field(label, value string) {
	if value == "" {
		value = "—"
	}
	l.font(regular, bodySize)
	lines := l.wrap(value, contentW-labelW)
	l.font(bold, bodySize)
	labels := l.wrap(label, labelW-8)
	n := max(len(lines), len(labels))
	l.need(float64(n) * lineH)
	l.gray(90)
	for i, s := range labels {
		l.text(marginX, l.y+float64(i)*lineH, s)
	}
	l.font(regular, bodySize)
	l.gray(0)
	for i, s := range lines {
		l.text(marginX+labelW, l.y+float64(i)*lineH, s)
	}
	l.y += float64(n)*lineH + 2
}

// paragraph is wrapped running text.
func (l *layout) paragraph(s string) {
	l.font(regular, bodySize)
	l.gray(0)
	for _, line := range l.wrap(s, contentW) {
		l.need(lineH)
		l.text(marginX, l.y, line)
		l.y += lineH
	}
	l.y += 2
}

// column is a table column: its title and its share of the content width.
type column struct {
	title string
	share float64
}

// table draws rows under a header; a cell's text wraps, a row never splits, and the header is
// repeated at the top of every page the table continues on.
func (l *layout) table(cols []column, rows [][]string) {
	widths := make([]float64, len(cols))
	for i, c := range cols {
		widths[i] = c.share * contentW
	}
	header := func() {
		l.font(bold, 8.5)
		var lines [][]string
		n := 1
		for i, c := range cols {
			ls := l.wrap(c.title, widths[i]-6)
			lines = append(lines, ls)
			n = max(n, len(ls))
		}
		h := float64(n)*12 + 4
		l.pdf.SetFillColor(226, 232, 243)
		l.pdf.RectFromUpperLeftWithStyle(marginX, l.y, contentW, h, "F")
		l.gray(20)
		x := marginX
		for i := range cols {
			for j, s := range lines[i] {
				l.text(x+3, l.y+2+float64(j)*12, s)
			}
			x += widths[i]
		}
		l.y += h + 2
	}
	l.need(3 * lineH)
	header()
	l.onNewPage = header
	defer func() { l.onNewPage = nil }()
	for r, row := range rows {
		l.font(regular, 8.5)
		cells := make([][]string, len(cols))
		n := 1
		for i := range cols {
			v := ""
			if i < len(row) {
				v = row[i]
			}
			cells[i] = l.wrap(v, widths[i]-6)
			n = max(n, len(cells[i]))
		}
		h := float64(n)*11.5 + 4
		l.need(h)
		if r%2 == 1 {
			l.pdf.SetFillColor(246, 247, 250)
			l.pdf.RectFromUpperLeftWithStyle(marginX, l.y-1, contentW, h, "F")
		}
		l.font(regular, 8.5)
		l.gray(0)
		x := marginX
		for i := range cols {
			for j, s := range cells[i] {
				l.text(x+3, l.y+1+float64(j)*11.5, s)
			}
			x += widths[i]
		}
		l.y += h
	}
	l.y += 6
}

// footers writes, once every page exists, the running header and "Página n de N" with the
// generation time and the retention date on every page.
func (l *layout) footers(running, left string) {
	if l.err != nil {
		return
	}
	total := l.pdf.GetNumberOfPages()
	for p := 1; p <= total; p++ {
		l.fail(l.pdf.SetPage(p))
		l.pdf.SetStrokeColor(180, 180, 180)
		l.pdf.SetLineWidth(0.5)
		l.pdf.Line(marginX, pageH-50, pageW-marginX, pageH-50)
		l.font(regular, 7.5)
		l.gray(90)
		if p > 1 {
			l.text(marginX, 28, running)
		}
		for i, s := range l.wrap(left, contentW-64) {
			l.text(marginX, pageH-44+float64(i)*10, s)
		}
		page := fmt.Sprintf("Página %d de %d", p, total)
		w, err := l.pdf.MeasureTextWidth(page)
		l.fail(err)
		l.text(pageW-marginX-w, pageH-44, page)
	}
}

func (l *layout) bytes() ([]byte, error) {
	if l.err != nil {
		return nil, fmt.Errorf("expediente: pdf: %w", l.err)
	}
	b, err := l.pdf.GetBytesPdfReturnErr()
	if err != nil {
		return nil, fmt.Errorf("expediente: pdf: %w", err)
	}
	return b, nil
}
