// The translation unit that builds the compile-fail cases' precompiled <ufx/ufx.hpp> (CMakeLists.txt).
