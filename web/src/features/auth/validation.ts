import { lazyModule } from '@/lib/lazy-module'

/**
 * The sign-in and registration rules (./resolvers.ts and zod), loaded after the screens paint:
 * when the browser is idle, or at the first validation, which waits for them (issue 38).
 */
export const authValidation = lazyModule(() => import('./resolvers'))
