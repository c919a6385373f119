import { render } from '@testing-library/react'
import { createMemoryRouter, RouterProvider } from 'react-router-dom'
import { routes } from '@/app/router'
import { AppProvider } from '@/app/provider'
import { createQueryClient } from '@/lib/query-client'

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
