/** How other screens open the sensor detail page: one helper in shared/, re-exported here. */
export { SENSOR_DETAIL_ROUTE, sensorDetailPath } from '../../shared/routes/sensorDetail';
