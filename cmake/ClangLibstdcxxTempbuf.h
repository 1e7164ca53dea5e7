// Force-included into C++ compiles by clang (CMakeLists.txt). libstdc++ 12
// (Debian 12) calls its own deprecated std::get_temporary_buffer inside
// std::stable_sort, and clang reports that use in the system header at each
// instantiation from our code (libstdc++ 13 silences it itself). Including
// the header first under a pragma silences only that header's text.
#if defined(__clang__) && __has_include(<bits/stl_tempbuf.h>)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wdeprecated-declarations"
#include <bits/stl_tempbuf.h>
#pragma clang diagnostic pop
#endif
