package qrimage_test

import (
	"bytes"
	"image"
	"image/png"
	"strings"
	"testing"

	"github.com/makiuchi-d/gozxing"
	gozxingqr "github.com/makiuchi-d/gozxing/qrcode"
	"github.com/stretchr/testify/require"

	"github.com/perfilseguro/perfilseguro/qrimage"
)

func decode(t *testing.T, b []byte) (image.Image, string) {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	require.NoError(t, err)
	bmp, err := gozxing.NewBinaryBitmapFromImage(img)
	require.NoError(t, err)
	res, err := gozxingqr.NewQRCodeReader().Decode(bmp, nil)
	require.NoError(t, err)
	return img, res.GetText()
}

func TestPNGRoundTrips(t *testing.T) {
	t.Parallel()
	cases := []struct {
		content string
		size    int
	}{
		{"https://perfilseguro.mx/verify/PS-1234-5678-90", 150},
		{"http://localhost:8080/verify/PS-0000-0001-07", 256},
		{"PS-9999-8888-77", 64},
		{"https://perfilseguro.mx/verify/" + strings.Repeat("x", 200), 512},
	}
	for _, c := range cases {
		b, err := qrimage.PNG(c.content, c.size)
		require.NoError(t, err)
		require.True(t, bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")), "PNG signature")
		img, text := decode(t, b)
		require.Equal(t, c.content, text)
		require.Equal(t, image.Rect(0, 0, c.size, c.size), img.Bounds())
	}
}

func TestPNGRejectsBadInput(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		content string
		size    int
	}{
		"empty content":   {"", 150},
		"zero size":       {"abc", 0},
		"negative size":   {"abc", -5},
		"too large":       {"abc", qrimage.MaxSize + 1},
		"too small":       {"https://perfilseguro.mx/verify/PS-1234-5678-90", 20},
		"content too big": {strings.Repeat("z", 5000), 1024},
	} {
		_, err := qrimage.PNG(c.content, c.size)
		require.Error(t, err, name)
	}
}
