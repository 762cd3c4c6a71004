import { describe, expect, it } from 'vitest'
import { ConfigError } from './config.js'
import { parseFeatureOptions } from './config-file.js'

const branding = (value: unknown) => parseFeatureOptions({ branding: value }).branding

const refusal = (value: unknown): string => {
  try {
    branding(value)
  } catch (error) {
    if (error instanceof ConfigError) return error.message
    throw error
  }
  return 'no error'
}

describe('branding in tessera.config.json', () => {
  it('calls the service Tessera, with its own mark and colours, when left out', () => {
    expect(parseFeatureOptions({}).branding).toEqual({
      productName: 'Tessera',
      logoUrl: null,
      accentColor: null,
      backLink: null,
    })
  })

  it('takes the product name, logo, accent colour and back link an operator sets', () => {
    expect(
      branding({
        productName: ' Acme Accounts ',
        logoUrl: 'https://acme.example/logo.svg',
        accentColor: '#D9480F',
        backLink: { label: 'Acme', url: 'http://app.acme.example/home' },
      }),
    ).toEqual({
      productName: 'Acme Accounts',
      logoUrl: 'https://acme.example/logo.svg',
      accentColor: '#d9480f',
      backLink: { label: 'Acme', url: 'http://app.acme.example/home' },
    })
  })

  it('takes a logo served by this server', () => {
    expect(branding({ logoUrl: '/brand/logo.png' }).logoUrl).toBe('/brand/logo.png')
  })

  it.each([
    [{ accentColor: 'orange' }, 'branding.accentColor must be a colour written #rrggbb'],
    [{ accentColor: '#fff' }, 'branding.accentColor must be a colour written #rrggbb'],
    [{ logoUrl: 'javascript:alert(1)' }, 'branding.logoUrl must be an https URL or a path'],
    // The portal's image policy allows https only: an http logo would never show.
    [{ logoUrl: 'http://acme.example/logo.svg' }, 'branding.logoUrl must be an https URL'],
    [{ logoUrl: '//evil.example/logo.svg' }, 'branding.logoUrl must be an https URL'],
    [
      { backLink: { label: 'Acme', url: 'ftp://acme.example' } },
      'branding.backLink.url must be an https or http URL',
    ],
    [{ backLink: { url: 'https://acme.example' } }, 'branding.backLink needs both "label" and "url"'],
    [
      { backLink: { label: 'Acme', url: 'https://a.example', target: '_blank' } },
      'branding.backLink.target is not a known option',
    ],
    [{ productName: '' }, 'branding.productName must be one line of 1 to 60 characters'],
    [{ productName: 'Acme\nFree prizes' }, 'branding.productName must be one line'],
    [{ productName: 'x'.repeat(61) }, 'branding.productName must be one line of 1 to 60 characters'],
    [{ colour: '#ffffff' }, 'branding.colour is not a known option'],
    ['Acme', 'branding must be an object'],
  ])('stops the start on %j', (value, message) => {
    expect(refusal(value)).toContain(`tessera.config.json: ${message}`)
  })
})
