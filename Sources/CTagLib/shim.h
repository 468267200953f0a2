// TagLib (C++) for CTagShim only: this module carries TagLib's link flag and pkg-config
// include path; Swift never imports TagLib's C++ headers, only CTagShim's C API.
#ifndef ALBUMKIT_CTAGLIB_SHIM_H
#define ALBUMKIT_CTAGLIB_SHIM_H
#endif
