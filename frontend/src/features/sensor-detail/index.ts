export { SensorDetailPage } from './components/SensorDetailPage';
