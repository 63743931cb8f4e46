/**
 * User-timing marks of the sensor graph (read by bench/sensor-graph.bench.ts): when a range answer
 * has arrived, and when the graph of it has been drawn and the frame painted.
 */
export const RANGE_RECEIVED_MARK = 'sensor-range-received';
export const GRAPH_DRAWN_MARK = 'sensor-graph-drawn';
