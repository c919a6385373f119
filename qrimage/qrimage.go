// Package qrimage draws QR codes as PNG images on our own server, so profile
// IDs never leak to a third-party QR service and the app works offline.
package qrimage

import (
	"errors"
	"fmt"

	qrcode "github.com/skip2/go-qrcode"
)

// MaxSize is the largest image side PNG accepts, in pixels; it bounds the work a request can cause.
const MaxSize = 2048

// PNG returns a size×size PNG of a QR code encoding content with medium (15%)
// error recovery and a white quiet zone. It fails when content is empty or too
// long for a QR code, or when size is not positive, above MaxSize, or too small
// to draw every module in at least one pixel.
func PNG(content string, size int) ([]byte, error) {
	if content == "" {
		return nil, errors.New("qrimage: empty content")
	}
	if size <= 0 || size > MaxSize {
		return nil, fmt.Errorf("qrimage: size %d outside 1..%d", size, MaxSize)
	}
	q, err := qrcode.New(content, qrcode.Medium)
	if err != nil {
		return nil, fmt.Errorf("qrimage: encode: %w", err)
	}
	if modules := len(q.Bitmap()); size < modules {
		return nil, fmt.Errorf("qrimage: size %d too small for %d modules", size, modules)
	}
	b, err := q.PNG(size)
	if err != nil {
		return nil, fmt.Errorf("qrimage: png: %w", err)
	}
	return b, nil
}
