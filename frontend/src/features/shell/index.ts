export { TopBar } from './components/TopBar';
