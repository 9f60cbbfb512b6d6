# ---- CMake package (docs/build.md) -------------------------------------------------
# `make install` also writes libdungeonConfig.cmake and libdungeonConfigVersion.cmake
# to $(CMAKEDIR), so that find_package(libdungeon 0.9 CONFIG REQUIRED) gives the
# imported targets libdungeon::dungeon (shared) and libdungeon::dungeon_static.
# They are made from cmake/*.cmake.in with the paths of this install; the
# top-level CMakeLists.txt is for add_subdirectory and FetchContent users.
CMAKEDIR ?= $(LIBDIR)/cmake/libdungeon
CMAKE_PKG := libdungeonConfig.cmake libdungeonConfigVersion.cmake
# INCLUDEDIR seen from LIBDIR, so that a staged or moved tree finds its header
cmake_include_rel = $(shell realpath -m --relative-to=$(LIBDIR) $(INCLUDEDIR))
cmake_sizeof_ptr = $(shell $(CC) -dM -E -x c /dev/null | sed -n 's/^\#define __SIZEOF_POINTER__ //p')
CMAKE_SUBST = -e 's|@VERSION@|$(VERSION)|g' -e 's|@ABI@|$(ABI_VERSION)|g' \
	-e 's|@SONAME@|$(SHARED_SONAME)|g' -e 's|@SHARED_FILE@|libdungeon.so.$(VERSION)|g' \
	-e 's|@LIBDIR@|$(LIBDIR)|g' -e 's|@INCLUDEDIR@|$(INCLUDEDIR)|g' \
	-e 's|@INCLUDE_REL@|$(cmake_include_rel)|g' -e 's|@SIZEOF_VOID_P@|$(cmake_sizeof_ptr)|g'

.PHONY: install-cmake uninstall-cmake
install: install-cmake
uninstall: uninstall-cmake
install-cmake: include/dungeon.h
	@mkdir -p $(B)/cmake
	$(INSTALL) -d -m 755 $(DESTDIR)$(CMAKEDIR)
	$(foreach f,$(CMAKE_PKG),sed $(CMAKE_SUBST) cmake/$(f).in > $(B)/cmake/$(f) && \
	  $(INSTALL) -m 644 $(B)/cmake/$(f) $(DESTDIR)$(CMAKEDIR)/$(f) &&) true
uninstall-cmake:
	rm -f $(addprefix $(DESTDIR)$(CMAKEDIR)/,$(CMAKE_PKG))
	-rmdir $(DESTDIR)$(CMAKEDIR) 2>/dev/null
