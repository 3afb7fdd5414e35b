// Expected: "ufx: an Eigen object needs #include <ufx/eigen.hpp>" (ufx.hpp came before Eigen's
// header, so it did not include Eigen's adapter).
#include <ufx/ufx.hpp>

#include <Eigen/Core>

int main() {
  auto neg = ufx::vectorize([](float a) { return -a; });
  const Eigen::MatrixXf m = Eigen::MatrixXf::Ones(2, 2);
  auto z = neg(m);
  (void)z;
}
