// libxml2 for the SVG reader. Debian builds libxml2 with ICU, and <libxml/encoding.h> then pulls
// in ICU's headers, which clash with Foundation's own copy of ICU in any Swift module that
// imports both. The reader uses no encoding-handler fields (only pointers to the handler travel
// through the structures it reads), so the ICU part of the header is left out here.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
