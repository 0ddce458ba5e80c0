#!/usr/bin/python3
# OpenCV's T-API (its OpenCL path, on the platform OCL_ICD_VENDORS names)
# against its CPU path, operation by operation: the largest difference,
# relative to the largest value, and how many elements differ. Needs
# Debian's python3-opencv. Run it on clmux and on PoCL and compare:
#   OCL_ICD_VENDORS=$PWD/build/libclmux.so tools/apps/opencv_tapi.py
#   OCL_ICD_VENDORS=/etc/OpenCL/vendors/pocl.icd tools/apps/opencv_tapi.py
import os, sys
os.environ["OPENCV_OPENCL_DEVICE"] = ":CPU:"
import cv2, numpy as np
cv2.ocl.setUseOpenCL(True)
rng = np.random.default_rng(7)
a = rng.integers(0, 256, (480, 640, 3), dtype=np.uint8)
b = rng.integers(0, 256, (480, 640, 3), dtype=np.uint8)
g = cv2.cvtColor(a, cv2.COLOR_BGR2GRAY)
f = a.astype(np.float32) / 255.0
M = np.float32([[0.9, 0.1, 12], [-0.1, 0.95, 7]])
H = np.float32([[1.0, 0.05, 3], [0.02, 0.98, 5], [0.0001, 0.0002, 1]])
ops = {
 "GaussianBlur": lambda x: cv2.GaussianBlur(x, (0, 0), 3),
 "boxFilter": lambda x: cv2.boxFilter(x, -1, (5, 5)),
 "blur": lambda x: cv2.blur(x, (7, 3)),
 "medianBlur": lambda x: cv2.medianBlur(x, 5),
 "bilateral": lambda x: cv2.bilateralFilter(x, 5, 50, 50),
 "filter2D": lambda x: cv2.filter2D(x, -1, np.float32([[0, -1, 0], [-1, 5, -1], [0, -1, 0]])),
 "sepFilter2D": lambda x: cv2.sepFilter2D(x, cv2.CV_32F, np.float32([1, 2, 1]), np.float32([1, 0, -1])),
 "Sobel": lambda x: cv2.Sobel(x, cv2.CV_16S, 1, 0),
 "Scharr": lambda x: cv2.Scharr(x, cv2.CV_32F, 0, 1),
 "Laplacian": lambda x: cv2.Laplacian(x, cv2.CV_16S, ksize=3),
 "erode": lambda x: cv2.erode(x, np.ones((3, 3), np.uint8)),
 "dilate": lambda x: cv2.dilate(x, np.ones((5, 5), np.uint8)),
 "morphGradient": lambda x: cv2.morphologyEx(x, cv2.MORPH_GRADIENT, np.ones((3, 3), np.uint8)),
 "cvtColor HSV": lambda x: cv2.cvtColor(x, cv2.COLOR_BGR2HSV),
 "cvtColor Lab": lambda x: cv2.cvtColor(x, cv2.COLOR_BGR2Lab),
 "cvtColor YUV": lambda x: cv2.cvtColor(x, cv2.COLOR_BGR2YUV),
 "cvtColor GRAY": lambda x: cv2.cvtColor(x, cv2.COLOR_BGR2GRAY),
 "cvtColor YCrCb": lambda x: cv2.cvtColor(x, cv2.COLOR_BGR2YCrCb),
 "cvtColor RGBA": lambda x: cv2.cvtColor(x, cv2.COLOR_BGR2RGBA),
 "resize linear": lambda x: cv2.resize(x, (333, 217), interpolation=cv2.INTER_LINEAR),
 "resize area": lambda x: cv2.resize(x, (160, 120), interpolation=cv2.INTER_AREA),
 "resize nearest": lambda x: cv2.resize(x, (1001, 701), interpolation=cv2.INTER_NEAREST),
 "resize cubic": lambda x: cv2.resize(x, (900, 500), interpolation=cv2.INTER_CUBIC),
 "pyrDown": lambda x: cv2.pyrDown(x),
 "pyrUp": lambda x: cv2.pyrUp(x),
 "warpAffine": lambda x: cv2.warpAffine(x, M, (640, 480)),
 "warpPerspective": lambda x: cv2.warpPerspective(x, H, (640, 480)),
 "remap": lambda x: cv2.remap(x, *[m.astype(np.float32) for m in np.meshgrid(np.arange(640) * 0.9 + 5, np.arange(480) * 0.95 + 3)], cv2.INTER_LINEAR),
 "flip": lambda x: cv2.flip(x, -1),
 "transpose": lambda x: cv2.transpose(x),
 "add": lambda x: cv2.add(x, b),
 "subtract": lambda x: cv2.subtract(x, b),
 "absdiff": lambda x: cv2.absdiff(x, b),
 "addWeighted": lambda x: cv2.addWeighted(x, 0.3, b, 0.7, 5),
 "multiply": lambda x: cv2.multiply(x, b, scale=1 / 255.0),
 "divide": lambda x: cv2.divide(x, b, scale=10),
 "bitwise_xor": lambda x: cv2.bitwise_xor(x, b),
 "min": lambda x: cv2.min(x, b),
 "threshold": lambda x: cv2.threshold(x, 127, 255, cv2.THRESH_BINARY)[1],
 "inRange": lambda x: cv2.inRange(x, (20, 30, 40), (200, 210, 220)),
 "convertTo": lambda x: cv2.convertScaleAbs(x, alpha=1.7, beta=-20),
 "normalize": lambda x: cv2.normalize(x, None, 0, 1000, cv2.NORM_MINMAX, cv2.CV_32F),
 "integral": lambda x: cv2.integral(cv2.cvtColor(x, cv2.COLOR_BGR2GRAY)),
 "equalizeHist": lambda x: cv2.equalizeHist(cv2.cvtColor(x, cv2.COLOR_BGR2GRAY)),
 "Canny": lambda x: cv2.Canny(x, 50, 150),
 "cornerHarris": lambda x: cv2.cornerHarris(cv2.cvtColor(x, cv2.COLOR_BGR2GRAY), 2, 3, 0.04),
 "sum": lambda x: np.array(cv2.sumElems(x)),
 "minMaxLoc": lambda x: np.array(cv2.minMaxLoc(cv2.cvtColor(x, cv2.COLOR_BGR2GRAY))[:2]),
 "countNonZero": lambda x: np.array([cv2.countNonZero(cv2.cvtColor(x, cv2.COLOR_BGR2GRAY))]),
 "matchTemplate": lambda x: cv2.matchTemplate(x, a[100:131, 200:241].copy(), cv2.TM_CCOEFF_NORMED),
 "magnitude": lambda x: cv2.magnitude(f[:, :, 0], f[:, :, 1]),
 "phase": lambda x: cv2.phase(f[:, :, 0], f[:, :, 1]),
 "exp": lambda x: cv2.exp(f),
 "log": lambda x: cv2.log(f + 0.01),
 "pow": lambda x: cv2.pow(f, 1.7),
 "sqrt": lambda x: cv2.sqrt(f),
 "dft": lambda x: cv2.dft(f[:, :, 0], flags=cv2.DFT_COMPLEX_OUTPUT),
 "gemm": lambda x: cv2.gemm(f[:64, :64, 0], f[:64, :64, 1], 1, None, 0),
}
for name, op in ops.items():
    try:
        cpu_in = a
        ocl = op(cv2.UMat(cpu_in)) if not name.startswith(("magnitude", "phase", "exp", "log", "pow", "sqrt", "dft", "gemm")) else None
        if ocl is None:
            # float ops: pass UMats of f
            fu = cv2.UMat(f)
            ocl = {"magnitude": lambda: cv2.magnitude(cv2.UMat(f[:, :, 0].copy()), cv2.UMat(f[:, :, 1].copy())),
                   "phase": lambda: cv2.phase(cv2.UMat(f[:, :, 0].copy()), cv2.UMat(f[:, :, 1].copy())),
                   "exp": lambda: cv2.exp(fu), "log": lambda: cv2.log(cv2.UMat(f + 0.01)),
                   "pow": lambda: cv2.pow(fu, 1.7), "sqrt": lambda: cv2.sqrt(fu),
                   "dft": lambda: cv2.dft(cv2.UMat(f[:, :, 0].copy()), flags=cv2.DFT_COMPLEX_OUTPUT),
                   "gemm": lambda: cv2.gemm(cv2.UMat(f[:64, :64, 0].copy()), cv2.UMat(f[:64, :64, 1].copy()), 1, None, 0)}[name]()
        cv2.ocl.setUseOpenCL(False)
        ref = op(cpu_in)
        cv2.ocl.setUseOpenCL(True)
        o = ocl.get() if isinstance(ocl, cv2.UMat) else np.asarray(ocl)
        r = np.asarray(ref)
        if o.shape != r.shape:
            print(f"{name:16s} shape {o.shape} vs {r.shape}"); continue
        d = np.abs(o.astype(np.float64) - r.astype(np.float64))
        scale = max(1.0, float(np.abs(r).max()))
        print(f"{name:16s} max {d.max():.6g} rel {d.max() / scale:.3g} differing {np.count_nonzero(d > 1e-6 * scale)}")
    except Exception as e:
        print(f"{name:16s} error {type(e).__name__}: {str(e)[:80]}")
