// Package api is the thin HTTP API: it validates, writes Postgres and enqueues jobs. One file per
// area; the error mapping and middleware live beside the server.
//
// One package, not one per area. The areas' file prefixes (admin_, oid4vci_, oid4vp_, passes_,
// privacy, partner_…) name what sub-packages would be, and Gitea splits its routers that way; we
// keep Mattermost's shape (one api4 package) because every area uses the same few things from
// Server — the store, the queue, the limiter, the session and owner checks, the error mapping and
// the OpenAPI registration — and splitting would turn those into an exported dependency struct
// passed to a dozen packages, for no route a newcomer cannot already find: a route's handler is
// in the file named after its URL's area (the table "Repository layout" in README.md maps each
// path to its files). Revisit when an area needs dependencies the others do not (the partner
// console is closest: its passkeys, team and integration files share only requirePartner).
package api
