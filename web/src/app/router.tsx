import type { ReactElement } from 'react'
import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router-dom'
import { FocusedLayout } from '@/components/layout/focused-layout'
import { AppLayout } from './routes/app-layout'
import { NotFoundRoute } from './routes/not-found'
import { lazyRoute, type LazyRoute } from './lazy-route'

// Every screen but the not-found page is its own chunk, loaded on first use, so a page's initial
// JavaScript is the shell and its own screen (issues 9 and 38). The landing, the public profile page
// (opened from QR codes), /login and /register cost no extra round trip for it: index.html starts
// their chunks' downloads beside the entry's (route-preload in vite.config.ts).
const LandingRoute = lazyRoute(() => import('./routes/landing'), 'LandingRoute')
const AdminRoute = lazyRoute(() => import('./routes/admin'), 'AdminRoute')
const AdminLoginRoute = lazyRoute(() => import('./routes/admin-login'), 'AdminLoginRoute')
const AdminEnrolRoute = lazyRoute(() => import('./routes/admin-enrol'), 'AdminEnrolRoute')
const AcceptInvitationRoute = lazyRoute(() => import('./routes/accept-invitation'), 'AcceptInvitationRoute')
const InvitationsRoute = lazyRoute(() => import('./routes/invitations'), 'InvitationsRoute')
const HostedFlowRoute = lazyRoute(() => import('./routes/hosted-flow'), 'HostedFlowRoute')
const IntegrationRoute = lazyRoute(() => import('./routes/integration'), 'IntegrationRoute')
const LoginRoute = lazyRoute(() => import('./routes/login'), 'LoginRoute')
const PartnerConsoleRoute = lazyRoute(() => import('./routes/partner-console'), 'PartnerConsoleRoute')
const PartnerEnrolRoute = lazyRoute(() => import('./routes/partner-enrol'), 'PartnerEnrolRoute')
const PrivacyRoute = lazyRoute(() => import('./routes/privacy'), 'PrivacyRoute')
const ProfileRoute = lazyRoute(() => import('./routes/profile'), 'ProfileRoute')
const ProfileValidatedRoute = lazyRoute(() => import('./routes/profile-validated'), 'ProfileValidatedRoute')
const RegisterRoute = lazyRoute(() => import('./routes/register'), 'RegisterRoute')
const ReturnRoute = lazyRoute(() => import('./routes/return'), 'ReturnRoute')
const SuccessRoute = lazyRoute(() => import('./routes/success'), 'SuccessRoute')
const TermsRoute = lazyRoute(() => import('./routes/terms'), 'TermsRoute')
const VerificationCompleteRoute = lazyRoute(() => import('./routes/verification-complete'), 'VerificationCompleteRoute')
const VerifyCodeRoute = lazyRoute(() => import('./routes/verify-code'), 'VerifyCodeRoute')
const VerifyCredentialRoute = lazyRoute(() => import('./routes/verify-credential'), 'VerifyCredentialRoute')
const VerifyProfileRoute = lazyRoute(() => import('./routes/verify-profile'), 'VerifyProfileRoute')

/** The route table of SPEC §2; anything else is the not-found screen. */
export const routes: RouteObject[] = [
  // A partner's hosted verification is a focused flow (issue 54): its own frame, without the site's.
  {
    element: <FocusedLayout />,
    children: [{ path: '/conectar', element: <HostedFlowRoute /> }],
  },
  {
    element: <AppLayout />,
    children: [
      { path: '/', element: <LandingRoute /> },
      { path: '/register', element: <RegisterRoute /> },
      { path: '/login', element: <LoginRoute /> },
      { path: '/verify-code', element: <VerifyCodeRoute /> },
      { path: '/profile', element: <ProfileRoute /> },
      { path: '/profile/validated', element: <ProfileValidatedRoute /> },
      { path: '/return', element: <ReturnRoute /> },
      { path: '/verify', element: <VerifyCredentialRoute /> },
      { path: '/verify/:profileId', element: <VerifyProfileRoute /> },
      { path: '/invitations', element: <InvitationsRoute /> },
      { path: '/accept-invitation', element: <AcceptInvitationRoute /> },
      { path: '/verification-complete', element: <VerificationCompleteRoute /> },
      { path: '/integration', element: <IntegrationRoute /> },
      { path: '/admin-login', element: <AdminLoginRoute /> },
      { path: '/admin-enrol', element: <AdminEnrolRoute /> },
      { path: '/admin', element: <AdminRoute /> },
      { path: '/socios', element: <PartnerConsoleRoute /> },
      { path: '/socios/registro', element: <PartnerEnrolRoute /> },
      { path: '/success', element: <SuccessRoute /> },
      { path: '/privacidad', element: <PrivacyRoute /> },
      { path: '/terminos', element: <TermsRoute /> },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
]

/** Builds the browser router of the app. */
export function createAppRouter() {
  return createBrowserRouter(routes)
}

/**
 * preloadRoute loads the lazy screens the given path renders, so a render started after it
 * settles paints the screen at once, without the loading fallback. main.tsx waits for it when
 * index.html painted a prerendered screen (the /login and /register shells, vite.config.ts), so
 * React replaces that screen with the same one instead of a spinner.
 */
export function preloadRoute(pathname: string): Promise<unknown> {
  const screens = (matchRoutes(routes, pathname) ?? [])
    .map((m) => (m.route.element as ReactElement | undefined)?.type as Partial<LazyRoute> | undefined)
    .filter((type): type is LazyRoute => typeof type?.preload === 'function')
  return Promise.all(screens.map((screen) => screen.preload()))
}
