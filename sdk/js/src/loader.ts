import type { PerfilSeguroClient, PerfilSeguroStatic } from './types.js'

export interface LoadOptions {
  /** Perfil Seguro's origin, e.g. https://perfilseguro.mx; the script is ${baseUrl}/widget/v1.js. */
  baseUrl: string
}

const SCRIPT_PATH = '/widget/v1.js'

function isLoaded(): boolean {
  return typeof window.PerfilSeguro === 'function'
}

function findScript(src: string): HTMLScriptElement | null {
  for (const script of Array.from(document.querySelectorAll<HTMLScriptElement>('script[src]'))) {
    if (script.src === src) return script
  }
  return null
}

// Waits for window.PerfilSeguro, injecting the script unless a tag for it is already on the page
// (a call made while an earlier one is still loading finds that one's tag). A tag that failed is
// removed, so a later call tries again.
function loadScript(src: string): Promise<PerfilSeguroStatic> {
  return new Promise<PerfilSeguroStatic>((resolve, reject) => {
    if (isLoaded()) {
      resolve(window.PerfilSeguro!)
      return
    }
    let script = findScript(src)
    if (!script) {
      script = document.createElement('script')
      script.src = src
      script.async = true
      ;(document.head || document.body).appendChild(script)
    }
    const element = script
    const onLoad = () => {
      cleanup()
      if (isLoaded()) resolve(window.PerfilSeguro!)
      else reject(new Error(`Perfil Seguro: ${src} se cargó pero no definió window.PerfilSeguro`))
    }
    const onError = () => {
      cleanup()
      element.remove()
      reject(new Error(`Perfil Seguro: no se pudo cargar ${src}`))
    }
    const cleanup = () => {
      element.removeEventListener('load', onLoad)
      element.removeEventListener('error', onError)
    }
    element.addEventListener('load', onLoad)
    element.addEventListener('error', onError)
  })
}

/**
 * Loads Perfil Seguro's drop-in (${baseUrl}/widget/v1.js) once, reusing a script tag already on
 * the page, and returns a client for the publishable key. Resolves null outside a browser (server
 * rendering), like loadStripe, so it can be called at a module's top level.
 */
export function loadPerfilSeguro(publishableKey: string, options: LoadOptions): Promise<PerfilSeguroClient | null> {
  if (typeof window === 'undefined' || typeof document === 'undefined') return Promise.resolve(null)
  let origin: string
  try {
    origin = new URL(options.baseUrl).origin
  } catch {
    return Promise.reject(new Error('Perfil Seguro: baseUrl no es una URL válida'))
  }
  const src = origin + SCRIPT_PATH
  return loadScript(src).then((PerfilSeguro) => PerfilSeguro(publishableKey, { baseUrl: origin }))
}
