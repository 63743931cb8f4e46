/** How other screens open the sensor detail page: one helper in shared/, re-exported here. */
export { SENSOR_DETAIL_ROUTE } from '../../shared/routes/sensorDetail';
