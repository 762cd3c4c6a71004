import { Link, Route, Routes } from 'react-router'
import { AccountPage } from '../features/account/AccountPage.js'
import { GoodbyePage } from '../features/account/GoodbyePage.js'
import { ActivityPage } from '../features/activity/ActivityPage.js'
import { ForgotPasswordPage } from '../features/auth/ForgotPasswordPage.js'
import { ResetPasswordPage } from '../features/auth/ResetPasswordPage.js'
import { SignInPage } from '../features/auth/SignInPage.js'
import { SignUpPage } from '../features/auth/SignUpPage.js'
import { Home } from '../features/session/Home.js'
import { RequireSession } from '../features/session/RequireSession.js'
import { SecurityPage } from '../features/sessions/SecurityPage.js'
import { CheckEmailPage } from '../features/verification/CheckEmailPage.js'
import { EmailVerifiedPage } from '../features/verification/EmailVerifiedPage.js'
import { AccountLayout, PublicLayout } from './layouts.js'
import { useTitle } from './use-title.js'

const NotFound = () => {
  useTitle('Page not found')
  return (
    <>
      <h1>Page not found</h1>
      <p>
        There is nothing at this address. <Link to="/">Go to the start</Link>
      </p>
    </>
  )
}

/** Every page of the portal. The server answers these paths with index.html (SPA fallback). */
export const App = () => (
  <Routes>
    <Route index element={<Home />} />
    <Route element={<PublicLayout />}>
      <Route path="sign-in" element={<SignInPage />} />
      <Route path="sign-up" element={<SignUpPage />} />
      <Route path="check-email" element={<CheckEmailPage />} />
      <Route path="email-verified" element={<EmailVerifiedPage />} />
      <Route path="forgot-password" element={<ForgotPasswordPage />} />
      <Route path="reset-password" element={<ResetPasswordPage />} />
      <Route path="goodbye" element={<GoodbyePage />} />
      <Route path="*" element={<NotFound />} />
    </Route>
    <Route element={<RequireSession />}>
      <Route element={<AccountLayout />}>
        <Route path="account" element={<AccountPage />} />
        <Route path="security" element={<SecurityPage />} />
        <Route path="activity" element={<ActivityPage />} />
      </Route>
    </Route>
  </Routes>
)
