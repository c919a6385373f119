import { useEffect } from 'react'
import { PRODUCT_NAME } from './config'

/** Sets the document title to '{title} | Perfil Seguro'. */
export function usePageTitle(title: string): void {
  useEffect(() => {
    document.title = `${title} | ${PRODUCT_NAME}`
  }, [title])
}
