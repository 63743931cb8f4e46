export { ApiDocsPage } from './components/ApiDocsPage';
