package applewallet

import (
	"bytes"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"math"
	"sync"
)

// Brand colours of the shield mark.
var (
	brandBlue  = color.RGBA{R: 30, G: 58, B: 138, A: 255}
	brandWhite = color.RGBA{R: 255, G: 255, B: 255, A: 255}
)

// brandImages returns the pass images, drawn once per process. They are
// deterministic, so every pass (and every process) carries identical bytes.
var brandImages = sync.OnceValue(func() []archiveFile {
	return []archiveFile{
		{"icon.png", encodePNG(drawIcon(29))},
		{"icon@2x.png", encodePNG(drawIcon(58))},
		{"logo.png", encodePNG(drawLogo(50))},
		{"logo@2x.png", encodePNG(drawLogo(100))},
	}
})

// drawIcon draws a white shield with a blue check on a blue square.
func drawIcon(size int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	draw.Draw(img, img.Bounds(), &image.Uniform{C: brandBlue}, image.Point{}, draw.Src)
	drawShield(img, brandWhite, brandBlue)
	return img
}

// drawLogo draws a white shield with a blue check on transparency, for the pass's blue face.
func drawLogo(size int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, size, size))
	drawShield(img, brandWhite, brandBlue)
	return img
}

// drawShield paints the shield and then the check mark over the whole of img.
func drawShield(img *image.RGBA, shield, check color.RGBA) {
	r := img.Bounds()
	draw.DrawMask(img, r, &image.Uniform{C: shield}, image.Point{}, coverage(r.Dx(), inShield), image.Point{}, draw.Over)
	draw.DrawMask(img, r, &image.Uniform{C: check}, image.Point{}, coverage(r.Dx(), inCheck), image.Point{}, draw.Over)
}

// coverage rasterises shape (in unit coordinates) into an anti-aliased alpha mask, 4×4 samples per pixel.
func coverage(size int, shape func(x, y float64) bool) *image.Alpha {
	const n = 4
	mask := image.NewAlpha(image.Rect(0, 0, size, size))
	for py := 0; py < size; py++ {
		for px := 0; px < size; px++ {
			hits := 0
			for sy := 0; sy < n; sy++ {
				for sx := 0; sx < n; sx++ {
					x := (float64(px) + (float64(sx)+0.5)/n) / float64(size)
					y := (float64(py) + (float64(sy)+0.5)/n) / float64(size)
					if shape(x, y) {
						hits++
					}
				}
			}
			mask.SetAlpha(px, py, color.Alpha{A: uint8(hits * 255 / (n * n))})
		}
	}
	return mask
}

// inShield reports whether (x, y) lies in a shield: straight sides, then curving to a point.
func inShield(x, y float64) bool {
	const top, waist, bottom, half = 0.08, 0.50, 0.94, 0.37
	if y < top || y > bottom {
		return false
	}
	w := half
	if y > waist {
		t := (y - waist) / (bottom - waist)
		w = half * (1 - t*t)
	}
	return math.Abs(x-0.5) <= w
}

// inCheck reports whether (x, y) lies on a thick check mark inside the shield.
func inCheck(x, y float64) bool {
	const thick = 0.055
	return segmentDistance(x, y, 0.32, 0.50, 0.45, 0.64) <= thick ||
		segmentDistance(x, y, 0.45, 0.64, 0.70, 0.34) <= thick
}

// segmentDistance is the distance from (px, py) to the segment (ax, ay)-(bx, by).
func segmentDistance(px, py, ax, ay, bx, by float64) float64 {
	dx, dy := bx-ax, by-ay
	t := ((px-ax)*dx + (py-ay)*dy) / (dx*dx + dy*dy)
	t = math.Max(0, math.Min(1, t))
	return math.Hypot(px-(ax+t*dx), py-(ay+t*dy))
}

// encodePNG encodes img; encoding an in-memory RGBA image cannot fail.
func encodePNG(img image.Image) []byte {
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img); err != nil {
		panic("applewallet: encode brand image: " + err.Error())
	}
	return buf.Bytes()
}
