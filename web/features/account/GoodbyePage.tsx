import { Link } from 'react-router'
import { useTitle } from '../../app/use-title.js'

/** Where deletion ends, whether immediate or confirmed from the mailed link. */
export const GoodbyePage = () => {
  useTitle('Account deleted')
  return (
    <>
      <h1>Your account is deleted</h1>
      <p>
        Your account and its sessions are gone, and you are signed out everywhere. Thank you for using
        Tessera.
      </p>
      <p className="links">
        <Link to="/sign-up">Create a new account</Link>
      </p>
    </>
  )
}
