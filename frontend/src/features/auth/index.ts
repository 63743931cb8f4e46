export { useLogoutMutation } from './api/authApi';
export { LoginPage } from './components/LoginPage';
export { RegisterPage } from './components/RegisterPage';
export { ResetPasswordPage } from './components/ResetPasswordPage';
