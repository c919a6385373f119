package credential

import (
	"bytes"
	"compress/zlib"
	"encoding/base64"
	"fmt"
	"io"
	"sync"
)

// maxStatusListBytes bounds a decoded list (2^27 entries) so a small zlib bomb cannot exhaust memory.
const maxStatusListBytes = 16 << 20

// StatusList is a Token Status List with 1 bit per entry (0 valid, 1 invalid); safe for concurrent use.
type StatusList struct {
	mu   sync.RWMutex
	bits []byte // entry i is bit i%8 (from the least significant) of byte i/8
}

// NewStatusList makes a list of valid entries; size is rounded up to a multiple of 8 (negative: 0).
func NewStatusList(size int) *StatusList {
	size = max(size, 0)
	return &StatusList{bits: make([]byte, (size+7)/8)}
}

// Set marks entry idx invalid (true) or valid (false).
func (l *StatusList) Set(idx int, invalid bool) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if err := l.check(idx); err != nil {
		return fmt.Errorf("set status: %w", err)
	}
	mask := byte(1) << (idx % 8)
	if invalid {
		l.bits[idx/8] |= mask
	} else {
		l.bits[idx/8] &^= mask
	}
	return nil
}

// Get reports whether entry idx is invalid.
func (l *StatusList) Get(idx int) (bool, error) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	if err := l.check(idx); err != nil {
		return false, fmt.Errorf("get status: %w", err)
	}
	return l.bits[idx/8]&(byte(1)<<(idx%8)) != 0, nil
}

// Len is the number of entries.
func (l *StatusList) Len() int {
	l.mu.RLock()
	defer l.mu.RUnlock()
	return len(l.bits) * 8
}

// check refuses an index outside the list; the caller holds the lock.
func (l *StatusList) check(idx int) error {
	if idx < 0 || idx >= len(l.bits)*8 {
		return fmt.Errorf("index %d out of range [0, %d)", idx, len(l.bits)*8)
	}
	return nil
}

// Encode returns "lst": base64url (no padding) of the ZLIB (RFC 1950) stream, best compression.
func (l *StatusList) Encode() (string, error) {
	l.mu.RLock()
	defer l.mu.RUnlock()
	var buf bytes.Buffer
	w, err := zlib.NewWriterLevel(&buf, zlib.BestCompression)
	if err != nil {
		return "", fmt.Errorf("encode status list: %w", err)
	}
	if _, err := w.Write(l.bits); err != nil {
		return "", fmt.Errorf("encode status list: %w", err)
	}
	if err := w.Close(); err != nil {
		return "", fmt.Errorf("encode status list: %w", err)
	}
	return b64(buf.Bytes()), nil
}

// DecodeStatusList reads an encoded "lst"; bits must be 1, the only size this package writes.
func DecodeStatusList(lst string, bits int) (*StatusList, error) {
	if bits != 1 {
		return nil, fmt.Errorf("decode status list: %w: %d bits per entry, only 1 is supported", ErrMalformed, bits)
	}
	compressed, err := base64.RawURLEncoding.DecodeString(lst)
	if err != nil {
		return nil, fmt.Errorf("decode status list: %w: not base64url: %v", ErrMalformed, err)
	}
	r, err := zlib.NewReader(bytes.NewReader(compressed))
	if err != nil {
		return nil, fmt.Errorf("decode status list: %w: not zlib: %v", ErrMalformed, err)
	}
	defer r.Close()
	raw, err := io.ReadAll(io.LimitReader(r, maxStatusListBytes+1))
	if err != nil {
		return nil, fmt.Errorf("decode status list: %w: %v", ErrMalformed, err)
	}
	if len(raw) > maxStatusListBytes {
		return nil, fmt.Errorf("decode status list: %w: larger than %d bytes", ErrMalformed, maxStatusListBytes)
	}
	return &StatusList{bits: raw}, nil
}
