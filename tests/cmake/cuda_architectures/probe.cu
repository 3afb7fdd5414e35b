__global__ void probe() {}
