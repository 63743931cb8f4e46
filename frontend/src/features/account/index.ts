export { useAccountMenu } from './components/AccountMenu';
