#include "penumbra_png.h"
