describe("the paywall experiment", function()
  it("is not enrolled without a unit or an override", function()
    local r = router.push("editor")
    expect(router.top()).to_equal({ name = "paywall" })
    expect(app.exposures()).to_equal({})
  end)

  it("sends the annualFirst arm to the annual offer, and reports one exposure", function()
    app.reset{ experiments = { paywallStyle = "annualFirst" } }
    router.push("editor")
    expect(router.top()).to_equal({ name = "annualOffer" })
    router.dismiss()
    router.push("editor")
    expect(app.exposures()).to_equal({
      { experiment = "paywallStyle", variant = "annualFirst", route = "editor", kind = "push" },
    })
    expect(router.history()[1].experiments).to_equal({ paywallStyle = "annualFirst" })
  end)

  it("keeps the control arm on the paywall", function()
    app.experiments{ paywallStyle = "control" }
    router.push("editor")
    expect(router.top()).to_equal({ name = "paywall" })
  end)

  it("never enrols a kids profile, whatever is forced", function()
    app.reset{ facts = { isKid = true }, experiments = { paywallStyle = "annualFirst" } }
    router.push("editor")
    expect(router.top()).to_equal({ name = "home" })
    expect(app.exposures()).to_equal({})
  end)

  it("assigns by the unit's hash", function()
    app.reset{ unit = "user-0" }
    router.push("editor")
    expect(router.top()).to_equal({ name = "annualOffer" })
    expect(app.exposures()[1].unit).to_be("user-0")
  end)
end)

describe("the onboarding experiment", function()
  it("shows the tour to the tour arm only", function()
    expect(router.push("tour").applied).to_be(false)
    app.experiments{ onboarding = "tour" }
    expect(router.push("tour").applied).to_be(true)
    app.experiments{ onboarding = "none" }
    expect(router.push("tour").applied).to_be(false)
  end)
end)
