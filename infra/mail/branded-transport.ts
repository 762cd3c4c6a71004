/// Every mail signed with the product's name (`branding.productName`, Tessera by default), and,
/// once an operator has named the product, its name before the subject ("Acme: Reset your
/// password"), so a person knows which service wrote. A default deployment keeps its subjects
/// as they always were: clients and filters that match them go on working.

import { DEFAULT_PRODUCT_NAME } from '../config/branding-options.js'
import type { MailTransport, OutgoingMail } from './mail.js'
import { escapeHtml } from './templates.js'

const SIGN_OFF_STYLE = 'margin:16px 0 0;font-size:13px;line-height:1.5;color:#52525b'

export const brandMail = (mail: OutgoingMail, productName: string): OutgoingMail => {
  const signOff = `— ${productName}`
  const htmlSignOff = `<p style="${SIGN_OFF_STYLE}">${escapeHtml(signOff)}</p>\n`
  // The layout closes its card with `</div>` before `</body>`: the sign-off goes inside the card.
  const cardEnd = mail.html.lastIndexOf('</div>')
  const at = cardEnd === -1 ? mail.html.lastIndexOf('</body>') : cardEnd
  return {
    ...mail,
    subject: productName === DEFAULT_PRODUCT_NAME ? mail.subject : `${productName}: ${mail.subject}`,
    text: `${mail.text.trimEnd()}\n\n${signOff}\n`,
    html:
      at === -1
        ? `${mail.html}${htmlSignOff}`
        : `${mail.html.slice(0, at)}${htmlSignOff}${mail.html.slice(at)}`,
  }
}

export const brandedTransport = (transport: MailTransport, productName: string): MailTransport => ({
  send: (mail) => transport.send(brandMail(mail, productName)),
  close: async () => {
    await transport.close?.()
  },
})
