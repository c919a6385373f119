package applewallet

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestBrandImages(t *testing.T) {
	t.Parallel()
	sizes := map[string]int{"icon.png": 29, "icon@2x.png": 58, "logo.png": 50, "logo@2x.png": 100}
	images := brandImages()
	require.Len(t, images, len(sizes))
	for _, f := range images {
		img, err := png.Decode(bytes.NewReader(f.data))
		require.NoError(t, err, f.name)
		require.Equal(t, image.Rect(0, 0, sizes[f.name], sizes[f.name]), img.Bounds(), f.name)
	}
	require.Equal(t, images[1].data, encodePNG(drawIcon(58)), "drawing is deterministic")

	icon := drawIcon(100)
	require.Equal(t, brandBlue, icon.RGBAAt(2, 2), "icon corner is the brand blue")
	require.Equal(t, brandWhite, icon.RGBAAt(50, 25), "shield body is white")
	require.Equal(t, brandBlue, icon.RGBAAt(45, 64), "check mark is blue")
	logo := drawLogo(100)
	require.Equal(t, color.RGBA{}, logo.RGBAAt(2, 2), "logo background is transparent")
	require.Equal(t, brandWhite, logo.RGBAAt(50, 25))
}
