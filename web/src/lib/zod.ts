import { z } from 'zod'

// Our CSP forbids eval (script-src has no 'unsafe-eval'). Zod 4 compiles object parsers with
// `new Function` when it can, and its probe for that is itself a CSP violation the browser
// reports (Lighthouse's "inspector issues"). Jitless parsing never probes. Schemas import z from
// here, so this runs before any schema is built.
z.config({ jitless: true })

export { z }
