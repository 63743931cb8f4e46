export { useLogoutMutation } from './api/authApi';
export { LoginPage } from './components/LoginPage';
