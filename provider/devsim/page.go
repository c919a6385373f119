package devsim

import (
	"html/template"
	"log/slog"
	"net/http"
)

// What the simulator's pages (biometric_page.go, checkout_page.go) share.

// loggerOr is l, or slog's default logger when a page was given none.
func loggerOr(l *slog.Logger) *slog.Logger {
	if l != nil {
		return l
	}
	return slog.Default()
}

// renderPage answers with page filled with data, as HTML that is never cached. A template that
// fails once the status has gone out can only be logged, with msg.
func renderPage(w http.ResponseWriter, status int, page *template.Template, data any, logger *slog.Logger, msg string) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	if err := page.Execute(w, data); err != nil {
		logger.Error(msg, "error", err)
	}
}
