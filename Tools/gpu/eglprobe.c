// eglprobe: lists EGL devices through EGL_EXT_platform_device and, for each, makes a
// surfaceless GLES 3 context and prints GL_VENDOR / GL_RENDERER / GL_VERSION.
#include <EGL/egl.h>
#include <EGL/eglext.h>
#include <GLES3/gl32.h>
#include <stdio.h>
#include <string.h>

int main(void) {
    const char *cext = eglQueryString(EGL_NO_DISPLAY, EGL_EXTENSIONS);
    printf("EGL client extensions: %s\n", cext ? cext : "(none)");
    if (!cext || !strstr(cext, "EGL_EXT_platform_device")) { printf("EGL_EXT_platform_device NOT offered\n"); return 2; }
    PFNEGLQUERYDEVICESEXTPROC qd = (PFNEGLQUERYDEVICESEXTPROC)eglGetProcAddress("eglQueryDevicesEXT");
    PFNEGLQUERYDEVICESTRINGEXTPROC qs = (PFNEGLQUERYDEVICESTRINGEXTPROC)eglGetProcAddress("eglQueryDeviceStringEXT");
    PFNEGLGETPLATFORMDISPLAYEXTPROC gpd = (PFNEGLGETPLATFORMDISPLAYEXTPROC)eglGetProcAddress("eglGetPlatformDisplayEXT");
    if (!qd || !gpd) { printf("eglQueryDevicesEXT/eglGetPlatformDisplayEXT missing\n"); return 2; }
    EGLDeviceEXT devs[16]; EGLint n = 0;
    if (!qd(16, devs, &n)) { printf("eglQueryDevicesEXT failed 0x%x\n", eglGetError()); return 2; }
    printf("EGL devices: %d\n", n);
    int hardware = 0;
    for (int i = 0; i < n; i++) {
        const char *dext = qs ? qs(devs[i], EGL_EXTENSIONS) : NULL;
        int sw = dext && strstr(dext, "EGL_MESA_device_software");
        printf("device %d: %s; extensions: %s\n", i, sw ? "software" : "hardware", dext ? dext : "(none)");
        EGLDisplay d = gpd(EGL_PLATFORM_DEVICE_EXT, devs[i], NULL);
        EGLint ma = 0, mi = 0;
        if (d == EGL_NO_DISPLAY || !eglInitialize(d, &ma, &mi)) { printf("  eglInitialize failed 0x%x\n", eglGetError()); continue; }
        printf("  EGL %d.%d vendor %s\n", ma, mi, eglQueryString(d, EGL_VENDOR));
        eglBindAPI(EGL_OPENGL_ES_API);
        EGLint cfgattr[] = { EGL_RENDERABLE_TYPE, EGL_OPENGL_ES3_BIT, EGL_NONE };
        EGLConfig cfg; EGLint nc = 0;
        eglChooseConfig(d, cfgattr, &cfg, 1, &nc);
        EGLint ctxattr[] = { EGL_CONTEXT_MAJOR_VERSION, 3, EGL_CONTEXT_MINOR_VERSION, 2, EGL_NONE };
        EGLContext c = eglCreateContext(d, nc ? cfg : EGL_NO_CONFIG_KHR, EGL_NO_CONTEXT, ctxattr);
        if (c == EGL_NO_CONTEXT) { printf("  eglCreateContext (ES 3.2) failed 0x%x\n", eglGetError()); eglTerminate(d); continue; }
        if (!eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, c)) { printf("  eglMakeCurrent failed 0x%x\n", eglGetError()); }
        else {
            printf("  GL_VENDOR: %s\n  GL_RENDERER: %s\n  GL_VERSION: %s\n  GL_SHADING_LANGUAGE_VERSION: %s\n",
                   glGetString(GL_VENDOR), glGetString(GL_RENDERER), glGetString(GL_VERSION), glGetString(GL_SHADING_LANGUAGE_VERSION));
            if (!sw) hardware++;
        }
        eglMakeCurrent(d, EGL_NO_SURFACE, EGL_NO_SURFACE, EGL_NO_CONTEXT);
        eglDestroyContext(d, c); eglTerminate(d);
    }
    printf("hardware devices with a GLES 3.2 context: %d\n", hardware);
    return hardware > 0 ? 0 : 1;
}
