import { render, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { createMemoryRouter, RouterProvider } from 'react-router-dom'
import { expect } from 'vitest'
import { routes } from '@/app/router'
import { AppProvider } from '@/app/provider'
import { createQueryClient } from '@/lib/query-client'
import { mockApi } from './mock-api'

/** Renders the real route table at a path, with fresh providers; returns the router too. */
export function renderRoute(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] })
  const client = createQueryClient()
  const utils = render(
    <AppProvider client={client}>
      <RouterProvider router={router} />
    </AppProvider>,
  )
  return { ...utils, router, client }
}

/** A userEvent session set up first, then renderRoute at the path: what a test that types and clicks starts with. */
export function renderRouteWithUser(path: string) {
  const user = userEvent.setup()
  return { user, ...renderRoute(path) }
}

/** Opens path with nobody signed in and nothing answered, and waits for the router to land on `to`. */
export async function expectRedirectWhenSignedOut(path: string, to: string) {
  mockApi({})
  const { router } = renderRoute(path)
  await waitFor(() => expect(router.state.location.pathname).toBe(to))
}
