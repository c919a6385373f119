import { createBrowserRouter, type RouteObject } from 'react-router-dom'
import { MainLayout } from '@/components/layout/main-layout'
import { AdminRoute } from './routes/admin'
import { AdminLoginRoute } from './routes/admin-login'
import { AcceptInvitationRoute } from './routes/accept-invitation'
import { InvitationsRoute } from './routes/invitations'
import { IntegrationRoute } from './routes/integration'
import { LandingRoute } from './routes/landing'
import { LoginRoute } from './routes/login'
import { NotFoundRoute } from './routes/not-found'
import { ProfileRoute } from './routes/profile'
import { ProfileValidatedRoute } from './routes/profile-validated'
import { RegisterRoute } from './routes/register'
import { ReturnRoute } from './routes/return'
import { SuccessRoute } from './routes/success'
import { VerificationCompleteRoute } from './routes/verification-complete'
import { VerifyCodeRoute } from './routes/verify-code'
import { VerifyProfileRoute } from './routes/verify-profile'

/** The route table of SPEC §2; anything else is the not-found screen. */
export const routes: RouteObject[] = [
  {
    element: <MainLayout />,
    children: [
      { path: '/', element: <LandingRoute /> },
      { path: '/register', element: <RegisterRoute /> },
      { path: '/login', element: <LoginRoute /> },
      { path: '/verify-code', element: <VerifyCodeRoute /> },
      { path: '/profile', element: <ProfileRoute /> },
      { path: '/profile/validated', element: <ProfileValidatedRoute /> },
      { path: '/return', element: <ReturnRoute /> },
      { path: '/verify/:profileId', element: <VerifyProfileRoute /> },
      { path: '/invitations', element: <InvitationsRoute /> },
      { path: '/accept-invitation', element: <AcceptInvitationRoute /> },
      { path: '/verification-complete', element: <VerificationCompleteRoute /> },
      { path: '/integration', element: <IntegrationRoute /> },
      { path: '/admin-login', element: <AdminLoginRoute /> },
      { path: '/admin', element: <AdminRoute /> },
      { path: '/success', element: <SuccessRoute /> },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
]

/** Builds the browser router of the app. */
export function createAppRouter() {
  return createBrowserRouter(routes)
}
