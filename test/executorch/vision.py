"""A torchvision model (MobileNetV3-Small, random weights, 10 classes, a
64x64 image) exported with ExecuTorch's default lowering, planned by its
greedy and by coreai-plan, run by ExecuTorch's runtime: the scores must agree
bit for bit between the two programs and with eager PyTorch within 1e-4.
"""
import torch
import torchvision
from torch.export import export

import harness


def test():
    torch.manual_seed(0)
    model = torchvision.models.mobilenet_v3_small(num_classes=10).eval()
    model.requires_grad_(False)
    image = torch.randn(1, 3, 64, 64)
    edge = harness.export_edge({"forward": export(model, (image,))})
    harness.compare_planners("mobilenet_v3_small", edge,
                             [("forward", [image])],
                             reference=[[model(image)]])


if __name__ == "__main__":
    harness.main(test)
