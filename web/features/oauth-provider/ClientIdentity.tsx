import { ownerInWords, type PublicClient } from './oauth.requests.js'

/// What the consent page says about the application asking: its logo and site, who registered it,
/// and its privacy policy and terms when it gave them.

const isWeb = (uri: string | undefined): uri is string => uri !== undefined && /^https?:\/\//i.test(uri)

export const ClientIdentity = ({ client }: { client: PublicClient }) => {
  // Only web addresses become links or images: a registered `javascript:` URI must never run here.
  const links = [
    { label: 'Website', href: client.client_uri },
    { label: 'Privacy policy', href: client.policy_uri },
    { label: 'Terms of service', href: client.tos_uri },
  ].filter((link): link is { label: string; href: string } => isWeb(link.href))
  return (
    <div className="client-identity">
      {isWeb(client.logo_uri) ? (
        <img
          className="client-logo"
          src={client.logo_uri}
          alt={`${client.client_name ?? 'Application'} logo`}
        />
      ) : null}
      <p className="client-owner">{ownerInWords(client)}</p>
      {links.length > 0 ? (
        <ul className="client-links" aria-label="About the application">
          {links.map((link) => (
            <li key={link.label}>
              <a href={link.href} target="_blank" rel="noopener noreferrer">
                {link.label}
              </a>
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  )
}
