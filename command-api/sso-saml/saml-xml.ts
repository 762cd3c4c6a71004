/// Namespace-aware reading of SAML XML with xmldom. A document with a DTD is refused before it is
/// parsed: SAML never needs one, and entities are how XML bombs and external-entity reads start.

import { DOMParser, type Element } from '@xmldom/xmldom'
import { fail } from './saml-errors.js'

export const NS = {
  protocol: 'urn:oasis:names:tc:SAML:2.0:protocol',
  assertion: 'urn:oasis:names:tc:SAML:2.0:assertion',
  dsig: 'http://www.w3.org/2000/09/xmldsig#',
} as const

// samlify's nested xmldom 0.8 declares the same module name with an older options type, and the
// compiler merges the two; at run time this file gets 0.9, whose `onError` this is.
const stopOnError = {
  onError: (level: string, message: string) => {
    if (level !== 'warning') throw new Error(message)
  },
}

export const parseSamlXml = (xml: string): Element => {
  if (/<!DOCTYPE|<!ENTITY/i.test(xml))
    return fail('SAML_INVALID_XML', 'SAML XML must not carry a DTD or entities')
  try {
    const parser = new DOMParser(stopOnError as ConstructorParameters<typeof DOMParser>[0])
    const root = parser.parseFromString(xml, 'text/xml').documentElement
    if (root) return root
  } catch {
    // answered below: a parse error is the sender's fault, never a 500
  }
  return fail('SAML_INVALID_XML')
}

export const childElements = (parent: Element, ns: string, localName: string): Element[] => {
  const found: Element[] = []
  for (let node = parent.firstChild; node; node = node.nextSibling) {
    if (node.nodeType !== 1) continue
    const element = node as Element
    if (element.namespaceURI === ns && element.localName === localName) found.push(element)
  }
  return found
}

/** The children at the end of a path of (namespace, local name) steps. */
export const pathElements = (root: Element, steps: ReadonlyArray<readonly [string, string]>): Element[] =>
  steps.reduce<Element[]>((level, [ns, name]) => level.flatMap((e) => childElements(e, ns, name)), [root])

export const descendantCount = (root: Element, ns: string, localName: string): number =>
  root.getElementsByTagNameNS(ns, localName).length

export const textOf = (element: Element | undefined): string | undefined => {
  const text = element?.textContent?.trim()
  return text ? text : undefined
}

export const attributeOf = (element: Element | undefined, name: string): string | undefined =>
  element?.hasAttribute(name) ? (element.getAttribute(name) ?? undefined) : undefined
